import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { UnsubscribeQuery } from '../../../../shared/contracts/notifications';
import { TOPIC_INFO } from '../../../../shared/notifications/topics';
import { ErrorAlert } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { loginPath } from '../../lib/navigation';
import { useChanges } from '../../lib/query';
import { useOptionalUser } from '../../lib/session';
import { preferenceKeys } from './notifications-api';
import './notifications.css';

/**
 * /unsubscribe?token=…&topic=…: the link in every notification e-mail, open to guests. Nothing changes until the
 * person presses Unsubscribe: mail scanners open links, and a GET that unsubscribed would turn topics off unasked.
 */
export const UnsubscribePage = () => {
  const [search] = useSearchParams();
  const api = useApi('notifications');
  const user = useOptionalUser();
  const [doneTopic, setDoneTopic] = useState<string>();
  const { busy, error, run } = useChanges<'unsubscribe'>();
  const parsed = UnsubscribeQuery.safeParse({ token: search.get('token') ?? '', topic: search.get('topic') ?? '' });
  const label = parsed.success ? TOPIC_INFO[parsed.data.topic].label : undefined;

  const unsubscribe = () => {
    if (!parsed.success) return;
    void run(
      'unsubscribe',
      async () => {
        const answer = await api.unsubscribe({ query: parsed.data });
        setDoneTopic(TOPIC_INFO[answer.topic].label);
      },
      preferenceKeys,
    );
  };

  return (
    <div className="page" data-testid="unsubscribe-page">
      <section className="card section-card unsubscribe-card" aria-labelledby="unsubscribe-heading">
        <h1 id="unsubscribe-heading">Unsubscribe from e-mail</h1>
        {!parsed.success ? (
          <p className="error" role="alert" data-testid="unsubscribe-error">
            This unsubscribe link is not complete: {parsed.error.issues[0]?.message}. Open the link from the e-mail
            again, or choose your topics on your notifications page once signed in.
          </p>
        ) : TOPIC_INFO[parsed.data.topic].locked ? (
          <p className="notice" data-testid="unsubscribe-locked">
            E-mail about {label} cannot be turned off: it is about your own access to the platform.
          </p>
        ) : doneTopic ? (
          <p className="notice" role="status" data-testid="unsubscribe-done">
            You will no longer get e-mail about {doneTopic}. Banners in the app still come.
          </p>
        ) : (
          <>
            <p data-testid="unsubscribe-topic">
              Stop e-mail about <strong>{label}</strong>? {TOPIC_INFO[parsed.data.topic].description}
            </p>
            <ErrorAlert testId="unsubscribe-error" error={error} />
            <button
              type="button"
              className="primary"
              data-testid="unsubscribe-confirm"
              disabled={busy === 'unsubscribe'}
              onClick={unsubscribe}
            >
              {busy === 'unsubscribe' ? 'Unsubscribing…' : 'Unsubscribe'}
            </button>
          </>
        )}
        <p className="muted small">
          {user ? (
            <Link to="/dashboard/notifications#preferences" data-testid="unsubscribe-preferences">
              All your e-mail preferences
            </Link>
          ) : (
            <>
              <Link to={loginPath({ pathname: '/dashboard/notifications', hash: '#preferences' })}>Sign in</Link> to
              choose all your e-mail preferences.
            </>
          )}
        </p>
      </section>
    </div>
  );
};
