import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { When } from '../../components/when';
import { personName } from '../../lib/person-name';
import { personLabel, usePersonName } from '../../lib/person-names';
import { useSignedInUser } from '../../lib/session';
import { AccountSecurity } from '../auth';
import { InvoicesPanel } from '../billing/public-invoices-panel';
import { InvitesPanel } from '../invites';
import { AuthEventsPanel } from './auth-events-panel';
import { DeleteMyAccount, NameForm } from './own-settings';
import { profileChangeKeys, usePerson } from './people-api';
import { PEOPLE_MESSAGES } from './people-messages';
import { deletionState } from './people-rules';
import { PersonFacts } from './person-parts';
import './people.css';
import { ErrorAlert } from '../../components/form-parts';

/**
 * `/dashboard/people/:id`: a person's profile. One's own shows the settings (names, account security,
 * sign-in events, invites, deleting the account); another person's is for staff, who get the full admin
 * page through the link (the API refuses everyone else, and its words are shown).
 */
export const ProfilePage = () => {
  const id = useParams().id ?? '';
  return <Profile key={id} id={id} />;
};

const Profile = ({ id }: { id: string }) => {
  const user = useSignedInUser();
  const self = id === user.id;
  const staff = isStaff(user.groups);
  // Another person's identity is self-or-staff at the API: everyone else sees what the names route lets them.
  const person = usePerson(id, { self, enabled: self || staff });
  const shared = usePersonName(self || staff ? undefined : id);
  const { identity, record } = person;
  const deletion = deletionState(record);
  const name = identity ? personName(identity, record) : undefined;
  const queries = useQueryClient();
  // The e-mail changes through the identity provider (AccountSecurity): the identity, and the record's copy
  // of the address, are read again.
  const emailChanged = () => {
    for (const queryKey of profileChangeKeys(id)) void queries.invalidateQueries({ queryKey });
  };

  return (
    <section className="page">
      <h1 data-testid="profile-heading">
        {self ? 'Your profile' : (name ?? (shared.name ? personLabel(shared.name) : 'Profile'))}
      </h1>
      {!self && !staff && shared.name && (
        <div className="card" data-testid="profile-shared">
          {shared.name.email && <p data-testid="profile-shared-email">{shared.name.email}</p>}
          <p className="muted small">{PEOPLE_MESSAGES.sharedProfile}</p>
        </div>
      )}
      {!self && !staff && !shared.loading && !shared.name && (
        <p className="notice" data-testid="profile-not-allowed">
          {PEOPLE_MESSAGES.notStaffProfile}
        </p>
      )}
      <ErrorAlert testId="profile-error" error={person.error} />
      {/* Spec §8: one's own record comes from the local cache; 'No user found' when the API has none. */}
      <ErrorAlert testId="profile-record-error" error={self ? person.recordError : undefined} />
      {self && person.recordState === 'localUserCacheStale' && (
        <p className="muted small" data-testid="profile-cache-stale">
          {PEOPLE_MESSAGES.cacheStale}
        </p>
      )}
      {person.loading && !identity && <p className="muted">{PEOPLE_MESSAGES.loading}</p>}

      {identity && (
        <div className="card">
          <PersonFacts identity={identity} />
          {deletion.window && (
            <p className="notice" data-testid="profile-deletion-queued">
              {PEOPLE_MESSAGES.deletionQueued(
                new Date(deletion.window.from).toLocaleDateString(),
                new Date(deletion.window.to).toLocaleDateString(),
              )}
            </p>
          )}
          {record && (
            <p className="muted small">
              Member since <When ms={record.created} />
            </p>
          )}
          {staff && !self && (
            <p className="small">
              <Link to={`/admin/people/${encodeURIComponent(id)}`} data-testid="profile-admin-link">
                Open in people administration
              </Link>
            </p>
          )}
        </div>
      )}

      {self && identity && (
        <>
          <div className="panel">
            <NameForm identity={identity} />
          </div>
          <div className="panel">
            <AccountSecurity onEmailChanged={emailChanged} />
          </div>
          <AuthEventsPanel userId={id} title="Your recent sign-ins" />
          <InvoicesPanel email={identity.email ?? user.email} />
          <InvitesPanel me={{ id, name: personName(identity, record), email: identity.email ?? user.email }} />
          <DeleteMyAccount userId={id} />
        </>
      )}
    </section>
  );
};
