import { type FormEvent, useState } from 'react';
import { type GroupName, hasRole } from '../../../../shared/auth/groups';
import { EmailMessage, type IdentityUser, type UserRecord } from '../../../../shared/contracts/users';
import { EditForm } from '../../components/edit-form';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { GroupTags } from '../../components/group-tags';
import { ListTable } from '../../components/list-table';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { personName } from '../../lib/person-name';
import { useChanges, useSaidChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { groupChangeKeys, identityChangeKeys, personGoneKeys, recordChangeKeys } from './people-api';
import { PEOPLE_MESSAGES } from './people-messages';
import { confirmsDeleteNow, deleteNowPhrase, deletionState, groupChoices } from './people-rules';

/** The person's groups, with remove and add for the groups the signed-in staff member may change. */
export const GroupsPanel = ({ identity }: { identity: IdentityUser }) => {
  const users = useApi('users');
  const actor = useSignedInUser();
  const groups = identity.groups ?? [];
  const { addable, removable } = groupChoices(actor.groups, groups);
  const [chosen, setChosen] = useState<GroupName>();
  const toAdd = chosen && addable.includes(chosen) ? chosen : addable[0];
  const { busy, error, run } = useChanges<`add:${string}` | `remove:${string}`>();
  const name = personName(identity);

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!toAdd) return;
    void run(
      `add:${toAdd}`,
      () => users.addUserToGroup({ params: { id: identity.id, group: toAdd, actor: actor.id } }),
      groupChangeKeys(identity.id),
    );
  };

  const remove = (group: GroupName) => {
    if (!window.confirm(PEOPLE_MESSAGES.removeGroupConfirm(group, name))) return;
    void run(
      `remove:${group}`,
      () => users.removeUserFromGroup({ params: { id: identity.id, group, actor: actor.id } }),
      groupChangeKeys(identity.id),
    );
  };

  return (
    <section className="panel card" aria-labelledby="person-groups-heading" data-testid="person-groups-panel">
      <h2 id="person-groups-heading">Groups</h2>
      <ErrorAlert testId="person-groups-error" error={error} />
      {groups.length === 0 && <p className="muted">In no group (precedence 100).</p>}
      <ul className="link-list">
        {groups.map((group) => (
          <li key={group} data-testid={`person-group-${group}`}>
            <span>{group}</span>
            {removable.has(group) && (
              <button
                type="button"
                className="danger"
                data-testid={`person-group-remove-${group}`}
                aria-label={`Remove ${name} from ${group}`}
                onClick={() => remove(group as GroupName)}
                disabled={busy !== undefined}
              >
                {busy === `remove:${group}` ? 'Removing…' : 'Remove'}
              </button>
            )}
          </li>
        ))}
      </ul>
      {toAdd && (
        <form className="inline-form" onSubmit={add} aria-label={`Add ${name} to a group`}>
          <div className="field">
            <label htmlFor="person-group-add">Add to group</label>
            <select
              id="person-group-add"
              data-testid="person-group-add"
              value={toAdd}
              onChange={(e) => setChosen(e.target.value as GroupName)}
            >
              {addable.map((group) => (
                <option key={group} value={group}>
                  {group}
                </option>
              ))}
            </select>
          </div>
          <SubmitButton testId="person-group-add-submit" busy={busy === `add:${toAdd}`} busyText="Adding…">
            Add
          </SubmitButton>
        </form>
      )}
      {!hasRole(actor.groups, 'Administrators') && (
        <p className="muted small">Only Administrators grant or remove Administrators and Employees.</p>
      )}
    </section>
  );
};

/** The platform's record of the person: billing id, cart, roles, times. */
export const RecordPanel = ({ record, error }: { record: UserRecord | undefined; error: string | undefined }) => (
  <section className="panel card" aria-labelledby="person-record-heading" data-testid="person-record">
    <h2 id="person-record-heading">Record</h2>
    <ErrorAlert testId="person-record-error" error={error} />
    {record && (
      <>
        <dl className="facts">
          <dt>Billing customer</dt>
          <dd className="mono">{record.subscriptionId ?? <span className="muted">—</span>}</dd>
          <dt>Roles</dt>
          <dd>
            <GroupTags groups={record.rolesList} testId="person-record-roles" />
          </dd>
          <dt>Created</dt>
          <dd>
            <When ms={record.created} />
          </dd>
          <dt>Updated</dt>
          <dd>
            <When ms={record.updated} />
          </dd>
          <dt>Local copy refreshed</dt>
          <dd>
            <When ms={record.localCacheTime} />
          </dd>
        </dl>
        <h3>Cart</h3>
        {record.cartItems.length === 0 ? (
          <p className="muted" data-testid="person-cart-empty">
            The cart is empty.
          </p>
        ) : (
          <ListTable
            label="Cart"
            rows={record.cartItems}
            rowKey={(item) => `${item.productId}#${item.deviceId}`}
            columns={[
              { header: 'Product', className: 'mono', cell: (item) => item.productId },
              { header: 'Device', className: 'mono', cell: (item) => item.deviceId },
              { header: 'Quantity', cell: (item) => item.quantity },
            ]}
          />
        )}
      </>
    )}
  </section>
);

interface DeletionPanelProps {
  identity: IdentityUser;
  record: UserRecord | undefined;
  onDeleted: () => void;
}

/**
 * The deletion queue with its history; queue, unqueue and (Administrators) delete now. Queueing disables the
 * account (the identity and the people lists are read again with the record); cancelling leaves it as it is.
 */
export const DeletionPanel = ({ identity, record, onDeleted }: DeletionPanelProps) => {
  const users = useApi('users');
  const actor = useSignedInUser();
  const administrator = hasRole(actor.groups, 'Administrators');
  const deletion = deletionState(record);
  const name = personName(identity, record);
  const { busy, error, setError, run, done } = useSaidChanges<'queue' | 'unqueue' | 'delete-now'>();
  const [typed, setTyped] = useState('');
  const params = { params: { id: identity.id } };

  const queue = () => {
    if (!window.confirm(PEOPLE_MESSAGES.queueConfirm(name))) return;
    void run('queue', async () => {
      await users.deleteUser(params);
      return PEOPLE_MESSAGES.done.queued;
    }, [...recordChangeKeys(identity.id), ...identityChangeKeys(identity.id)]);
  };

  const unqueue = () => {
    if (!window.confirm(PEOPLE_MESSAGES.unqueueConfirm(name))) return;
    void run(
      'unqueue',
      async () => {
        await users.updateUserRecord({ ...params, body: { deletion: 'unqueue' } });
        return PEOPLE_MESSAGES.done.unqueued;
      },
      recordChangeKeys(identity.id),
    );
  };

  const deleteNow = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!confirmsDeleteNow(typed, identity)) return setError(PEOPLE_MESSAGES.deleteNowMismatch);
    void run(
      'delete-now',
      async () => {
        await users.adminDeleteUser(params);
        onDeleted();
        return undefined;
      },
      personGoneKeys,
    );
  };

  return (
    <section className="panel card danger-zone" aria-labelledby="person-deletion-heading" data-testid="person-deletion">
      <h2 id="person-deletion-heading">Deletion</h2>
      <ErrorAlert testId="person-deletion-error" error={error} />
      <DoneNote text={done} testId="person-deletion-done" />
      {deletion.queued ? (
        <>
          <p data-testid="person-deletion-state" data-queued="true">
            Queued <When ms={deletion.time} /> by{' '}
            <span className="mono">{deletion.selfRequested ? 'the person themself' : deletion.requester}</span>
            {deletion.window &&
              `; deleted between ${new Date(deletion.window.from).toLocaleDateString()} and ${new Date(deletion.window.to).toLocaleDateString()}`}
            .
          </p>
          <button type="button" data-testid="person-unqueue" onClick={unqueue} disabled={busy !== undefined}>
            {busy === 'unqueue' ? 'Cancelling…' : 'Cancel the deletion'}
          </button>
        </>
      ) : (
        <>
          <p data-testid="person-deletion-state" data-queued="false">
            No deletion queued.
          </p>
          <button
            type="button"
            className="danger"
            data-testid="person-queue"
            onClick={queue}
            disabled={busy !== undefined}
          >
            {busy === 'queue' ? 'Queueing…' : 'Queue for deletion'}
          </button>
        </>
      )}

      {deletion.history.length > 0 && (
        <>
          <h3>History</h3>
          <ul className="link-list" data-testid="person-deletion-history">
            {deletion.history.map((entry) => (
              <li key={`${entry.time ?? 0}-${entry.unqueuedBy.time}`}>
                Queued <When ms={entry.time} /> by {entry.selfRequested ? 'the person' : (entry.requester ?? '—')}
                {'; '}
                cancelled <When ms={entry.unqueuedBy.time} /> by{' '}
                <span className="mono">{entry.unqueuedBy.requester}</span>
              </li>
            ))}
          </ul>
        </>
      )}

      {administrator && (
        <form className="confirm-panel" onSubmit={deleteNow} aria-labelledby="person-delete-now-heading" noValidate>
          <h3 id="person-delete-now-heading">Delete now</h3>
          <p id="person-delete-now-explain">{PEOPLE_MESSAGES.deleteNowExplain(deleteNowPhrase(identity))}</p>
          <div className="field">
            <label htmlFor="person-delete-now-confirm">Type {deleteNowPhrase(identity)}</label>
            <input
              id="person-delete-now-confirm"
              data-testid="person-delete-now-confirm"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              aria-describedby="person-delete-now-explain"
            />
          </div>
          <button
            type="submit"
            className="danger"
            data-testid="person-delete-now"
            disabled={busy !== undefined || !confirmsDeleteNow(typed, identity)}
          >
            {busy === 'delete-now' ? 'Deleting…' : 'Delete the account now'}
          </button>
        </form>
      )}
    </section>
  );
};

/** An e-mail to the person through the platform's e-mail service. */
export const EmailPanel = ({ identity }: { identity: IdentityUser }) => {
  const users = useApi('users');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const to = identity.email;
  const form = useCheckedSubmit(
    () => checkWith(EmailMessage, { toAddresses: to ? [to] : [], subject, textMessage: text }),
    async (email) => {
      await users.emailUser({ body: { email } });
      setSubject('');
      setText('');
      return PEOPLE_MESSAGES.done.emailSent;
    },
  );
  if (!to) return null;

  return (
    <EditForm
      name="person-email"
      title="Send an e-mail"
      intro={`To ${to}`}
      className="panel card"
      form={form}
      submitText="Send"
      busyText="Sending…"
    >
      <TextField
        id="person-email-subject"
        label="Subject"
        value={subject}
        onChange={setSubject}
        error={form.fields.subject}
      />
      <TextField
        id="person-email-text"
        label="Message"
        value={text}
        onChange={setText}
        multiline
        rows={5}
        error={form.fields.textMessage}
      />
    </EditForm>
  );
};
