import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { RotatedSecret, Webhook } from '../../../../shared/contracts/integrations';
import { ErrorAlert } from '../../components/form-parts';
import { listItem } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { sectionOf } from '../../lib/navigation';
import { useChanges } from '../../lib/query';
import { SecretOnce } from '../../lib/secret-once';
import { DeliveryLog } from './delivery-log';
import { eventLabel, webhookStateText } from './integration-rules';
import { webhookKeys } from './integrations-api';
import './integrations.css';

type Busy = 'test' | 'toggle' | 'rotate' | 'delete';

/** On or off, in words and colour. */
export const WebhookStateBadge = ({ webhook }: { webhook: Webhook }) => (
  <span
    className={`badge badge-webhook-${webhook.status === 'enabled' ? 'on' : 'off'}`}
    data-testid={`webhook-state-${webhook.id}`}
    data-status={webhook.status}
  >
    {webhookStateText(webhook)}
  </span>
);

/**
 * One webhook: where it sends, what, whether it is on; a test, turning it off or on, a new secret (shown once) and
 * deleting it; and its delivery log (open from the start on the webhook's own page).
 */
export const WebhookCard = ({
  webhook,
  logOpen = false,
  onDeleted,
  headingLevel = 3,
}: {
  webhook: Webhook;
  logOpen?: boolean;
  onDeleted?: () => void;
  headingLevel?: 2 | 3;
}) => {
  const integrations = useApi('integrations');
  const { pathname } = useLocation();
  const { busy, error, run } = useChanges<Busy>();
  const [rotated, setRotated] = useState<RotatedSecret>();
  const [showLog, setShowLog] = useState(logOpen);
  const [tested, setTested] = useState<number>();
  const on = webhook.status === 'enabled';
  const id = webhook.id;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const test = () =>
    void run(
      'test',
      async () => {
        await integrations.testWebhook({ params: { id } });
        setShowLog(true);
        setTested(Date.now());
      },
      webhookKeys(id),
    );
  const toggle = () => {
    if (on && !window.confirm('Turn this webhook off? Nothing is sent or kept for it until it is on again.')) return;
    void run('toggle', () => integrations.updateWebhook({ params: { id }, body: { enabled: !on } }), webhookKeys(id));
  };
  const rotate = () => {
    if (!window.confirm('Make a new signing secret? The current one keeps signing for 24 hours beside it.')) return;
    void run('rotate', async () => setRotated(await integrations.rotateSecret({ params: { id } })), webhookKeys(id));
  };
  const remove = () => {
    if (!window.confirm(`Delete the webhook to ${webhook.url}? What waits for it is dropped.`)) return;
    void run(
      'delete',
      async () => {
        await integrations.deleteWebhook({ params: { id } });
        onDeleted?.();
      },
      webhookKeys(id),
    );
  };

  return (
    <article
      className="card section-card"
      aria-labelledby={`webhook-heading-${id}`}
      data-testid={`webhook-${id}`}
      {...listItem(id)}
    >
      <Heading id={`webhook-heading-${id}`} className="title-with-badge">
        <span className="mono webhook-url" data-testid={`webhook-url-${id}`}>
          {webhook.url}
        </span>
        <WebhookStateBadge webhook={webhook} />
      </Heading>
      {webhook.description && <p>{webhook.description}</p>}
      <p className="small" data-testid={`webhook-events-${id}`}>
        Sends: {webhook.events.map(eventLabel).join(', ')}
      </p>
      <p className="muted small">
        Added <When ms={webhook.created} />
        {webhook.failingSince !== undefined && (
          <>
            {' '}
            · failing since <When ms={webhook.failingSince} />
          </>
        )}
        {webhook.waiting !== undefined && webhook.waiting > 0 && (
          <span data-testid={`webhook-waiting-${id}`}>
            {' '}
            · {webhook.waiting >= 1000 ? '1,000 or more' : webhook.waiting} waiting
          </span>
        )}
        {!pathname.includes('/webhooks/') && (
          <>
            {' '}
            · <Link to={`/${sectionOf(pathname)}/webhooks/${encodeURIComponent(id)}`}>Open its page</Link>
          </>
        )}
      </p>
      <ErrorAlert testId={`webhook-error-${id}`} error={error} />
      {rotated && (
        <SecretOnce
          value={rotated.secret}
          testId={`webhook-rotated-${id}`}
          valueTestId={`webhook-rotated-secret-${id}`}
          copyTestId={`webhook-rotated-copy-${id}`}
          onHide={() => setRotated(undefined)}
        >
          <strong>Copy the new secret now: it will not be shown again.</strong> Until{' '}
          <When ms={rotated.previousSecretUntil} /> each request is signed with both secrets, so your receiver can move
          over in its own time.
        </SecretOnce>
      )}
      <div className="webhook-actions">
        <button type="button" data-testid={`webhook-test-${id}`} onClick={test} disabled={busy !== undefined}>
          {busy === 'test' ? 'Sending…' : 'Send a test'}
        </button>
        <button type="button" data-testid={`webhook-toggle-${id}`} onClick={toggle} disabled={busy !== undefined}>
          {busy === 'toggle' ? 'Saving…' : on ? 'Turn off' : 'Turn on'}
        </button>
        <button type="button" data-testid={`webhook-rotate-${id}`} onClick={rotate} disabled={busy !== undefined}>
          {busy === 'rotate' ? 'Rotating…' : 'New secret'}
        </button>
        <button
          type="button"
          className="danger"
          data-testid={`webhook-delete-${id}`}
          onClick={remove}
          disabled={busy !== undefined}
        >
          Delete
        </button>
        <button
          type="button"
          className="link-button"
          aria-expanded={showLog}
          aria-controls={`webhook-log-${id}`}
          data-testid={`webhook-log-toggle-${id}`}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? 'Hide the delivery log' : 'Delivery log'}
        </button>
      </div>
      {showLog && (
        <section id={`webhook-log-${id}`} aria-label={`Delivery log of ${webhook.url}`}>
          <DeliveryLog webhookId={id} enabled={on} refreshKey={tested} />
        </section>
      )}
    </article>
  );
};
