import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useFirstAnswers } from '../../lib/first-answers';
import { personName } from '../../lib/person-name';
import { useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { CustomerBillingPanel, useCustomerBillingFirstReads } from '../billing/public-customer-billing-panel';
import { AuthEventsPanel, authEventsPagesQuery } from './auth-events-panel';
import { identityQuery, recordQuery, usePerson } from './people-api';
import { PEOPLE_MESSAGES } from './people-messages';
import { PersonActions, type PersonBusy } from './person-actions';
import { DeletionPanel, EmailPanel, GroupsPanel, RecordPanel } from './person-admin-panels';
import { PersonFacts } from './person-parts';
import './people.css';
import { DoneNote, ErrorAlert } from '../../components/form-parts';

/**
 * `/admin/people/:id` (staff): everything of one person: identity, record, groups, the staff controls,
 * sign-in events, the deletion queue and its history, and an e-mail to them.
 */
export const PersonAdminPage = () => {
  const id = useParams().id ?? '';
  return <PersonAdmin key={id} id={id} />;
};

const PersonAdmin = ({ id }: { id: string }) => {
  // Every panel's reads sit above the deletion and e-mail controls at the page's foot: the page is drawn with them
  // (docs/frontend-layout.md, "No lost clicks").
  useFirstAnswers({ reads: [identityQuery(id), recordQuery(id)], pages: [authEventsPagesQuery(id)] });
  const person = usePerson(id);
  useCustomerBillingFirstReads(person.identity?.email);
  const { identity, record } = person;
  const user = useSignedInUser();
  const navigate = useNavigate();
  const { busy, error, run } = useChanges<PersonBusy>();
  const [note, setNote] = useState<string>();

  return (
    <section className="page">
      <p className="small">
        <Link to="/admin/people">← People</Link>
      </p>
      <h1 data-testid="person-heading">{identity ? personName(identity, record) : 'Person'}</h1>
      <ErrorAlert testId="person-error" error={person.error ?? error} />
      <DoneNote text={note} testId="person-done" />
      {person.loading && !identity && <p className="muted">{PEOPLE_MESSAGES.loading}</p>}

      {identity && (
        <>
          <div className="card">
            <PersonFacts identity={identity} />
            <p className="small mono muted">id {identity.id}</p>
            {identity.id === user.id && (
              <p className="small">
                <Link to={`/dashboard/people/${encodeURIComponent(id)}`}>Your own settings</Link>
              </p>
            )}
            <PersonActions person={identity} busy={busy} run={run} onDone={setNote} />
          </div>
          <GroupsPanel identity={identity} />
          <RecordPanel record={record} error={person.recordError} />
          <AuthEventsPanel userId={id} />
          <CustomerBillingPanel email={identity.email} />
          <EmailPanel identity={identity} />
          <DeletionPanel
            identity={identity}
            record={record}
            onDeleted={() =>
              navigate('/admin/people', { state: { note: PEOPLE_MESSAGES.deletedNow(personName(identity, record)) } })
            }
          />
        </>
      )}
    </section>
  );
};
