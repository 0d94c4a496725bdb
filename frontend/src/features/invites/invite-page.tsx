import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router-dom';
import { useApi } from '../../lib/api';
import { loginPath } from '../../lib/navigation';
import { errorOf, useChanges } from '../../lib/query';
import { useSession } from '../../lib/session';
import { INVITE_STATUS_TEXT, inviteTypeText, mayAnswer } from './invite-rules';
import { answeredInviteKeys, inviteQuery } from './invites-api';
import { AnswerButtons } from './invites-panel';
import './invites.css';
import { ErrorAlert } from '../../components/form-parts';

/**
 * `/invites/:id`: the link in an invite e-mail. Guests see who invited them and why, and sign up or sign in
 * to answer (the login page brings them back here); the invited person, signed in, accepts or declines.
 */
export const InvitePage = () => {
  const id = useParams().id ?? '';
  const location = useLocation();
  const users = useApi('users');
  const { state } = useSession();
  const { busy, error, run } = useChanges<`${'accepted' | 'declined'}:${string}`>();
  const query = useQuery(inviteQuery(id));
  const invite = query.data;
  const loadError = errorOf(query);

  const signedIn = state.status === 'signed-in' ? state.user : undefined;
  const answer = (status: 'accepted' | 'declined') => {
    if (!invite || !signedIn) return;
    void run(
      `${status}:${id}`,
      () => users.updateInvite({ params: { id }, body: { status } }),
      answeredInviteKeys(invite, status, signedIn.id),
    );
  };

  return (
    <main className="login">
      <article className="card invite-card" aria-labelledby="invite-page-heading" data-testid="invite-page">
        <h1 id="invite-page-heading">You are invited</h1>
        <ErrorAlert testId="invite-page-error" error={loadError ?? error} />
        {!invite && !loadError && <p className="muted">Loading the invite…</p>}
        {invite && (
          <>
            <p data-testid="invite-page-from">
              <strong>{invite.inviterName}</strong> invited {invite.invited.name ?? invite.invited.email}{' '}
              {inviteTypeText(invite)}.
            </p>
            {invite.message && (
              <blockquote className="invite-message" data-testid="invite-page-message">
                {invite.message}
              </blockquote>
            )}
            <p>
              Status:{' '}
              <strong data-testid="invite-page-status" data-status={invite.status}>
                {INVITE_STATUS_TEXT[invite.status]}
              </strong>
            </p>
            {invite.status === 'pending' && state.status === 'guest' && (
              <p>
                <Link className="button primary" to={loginPath(location)} data-testid="invite-page-sign-in">
                  Sign up / sign in to accept
                </Link>
              </p>
            )}
            {signedIn && mayAnswer(invite, signedIn.email) && (
              <div className="actions">
                <AnswerButtons invite={invite} busy={busy} answer={answer} />
              </div>
            )}
            {signedIn && invite.status === 'pending' && !mayAnswer(invite, signedIn.email) && (
              <p className="notice" data-testid="invite-page-other-person">
                This invite was sent to {invite.invited.email}; you are signed in as{' '}
                {signedIn.email ?? signedIn.username}.
              </p>
            )}
          </>
        )}
        {signedIn && (
          <p className="small">
            <Link to="/dashboard" data-testid="invite-page-dashboard">
              Go to your dashboard
            </Link>
          </p>
        )}
      </article>
    </main>
  );
};
