import { Link } from 'react-router-dom';
import { ReceivedInvites, useInvites } from '../invites';

/**
 * The dashboard's people corner: a link to one's own profile (settings, invites sent) and the invites
 * waiting for an answer, answered in place.
 */
export const DashboardInvites = ({ user }: { user: { id: string; email?: string } }) => {
  const pending = useInvites({ invitedEmail: user.email, status: 'pending' });
  const profile = `/dashboard/people/${encodeURIComponent(user.id)}`;
  return (
    <section className="panel" aria-label="Your profile and invites" data-testid="dashboard-people">
      <p className="actions">
        <Link to={profile} data-testid="dashboard-profile-link">
          Your profile and settings
        </Link>
        <Link to={`${profile}#invites`} data-testid="dashboard-invite-link">
          Invite someone
        </Link>
      </p>
      {user.email && (pending.items.length > 0 || pending.error) && (
        <ReceivedInvites list={pending} title="Invites waiting for your answer" />
      )}
    </section>
  );
};
