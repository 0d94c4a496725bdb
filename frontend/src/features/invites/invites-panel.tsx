import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Invite } from '../../../../shared/contracts/users';
import { EditForm } from '../../components/edit-form';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { type ListState, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { checkContactInvite, INVITE_STATUS_TEXT, type InviteForm, inviteTypeText } from './invite-rules';
import { answeredInviteKeys, newInviteKeys, useInvites, withdrawnInviteKeys } from './invites-api';

export const EMPTY_INVITE_FORM: InviteForm = { email: '', name: '', message: '' };

/** Every invite form's fields: the invited person's e-mail and name, and a message; ids `{prefix}-email` and so on. */
export const InviteFields = ({
  prefix,
  form,
  onChange,
  fields,
}: {
  prefix: string;
  form: InviteForm;
  onChange: (form: InviteForm) => void;
  /** The check's messages, by the invite body's fields. */
  fields: Record<string, string>;
}) => {
  const set = (key: keyof InviteForm) => (value: string) => onChange({ ...form, [key]: value });
  return (
    <>
      <TextField
        id={`${prefix}-email`}
        label="Their e-mail"
        type="email"
        value={form.email}
        onChange={set('email')}
        error={fields.invited}
      />
      <TextField id={`${prefix}-name`} label="Their name (optional)" value={form.name} onChange={set('name')} />
      <TextField
        id={`${prefix}-message`}
        label="Message (optional)"
        value={form.message}
        onChange={set('message')}
        multiline
        error={fields.message}
      />
    </>
  );
};

/** "Invite someone": a contact invite from the signed-in person, e-mailed to the invited person. */
export const InviteSomeone = ({ inviter }: { inviter: { id: string; name: string } }) => {
  const users = useApi('users');
  const [form, setForm] = useState<InviteForm>(EMPTY_INVITE_FORM);
  const checked = checkContactInvite(form, inviter);
  const submit = useCheckedSubmit(
    () => checked,
    async (body) => {
      const invite = await users.inviteUser({ body });
      setForm(EMPTY_INVITE_FORM);
      return `Invite sent to ${invite.invited.email}.`;
    },
    checked.ok ? newInviteKeys(checked.value) : [],
  );

  return (
    <EditForm name="invite" title="Invite someone" level={3} form={submit} submitText="Send invite" busyText="Sending…">
      <InviteFields prefix="invite" form={form} onChange={setForm} fields={submit.fields} />
    </EditForm>
  );
};

type InviteBusy = `withdraw:${string}` | `accepted:${string}` | `declined:${string}`;

const InviteTable = ({
  list,
  label,
  testId,
  party,
  actions,
  empty,
  error,
}: {
  list: ListState<Invite>;
  label: string;
  testId: string;
  party: 'invited' | 'inviter';
  actions: (invite: Invite) => React.ReactNode;
  empty: string;
  /** A change to one of the invites that failed. */
  error: string | undefined;
}) => (
  <PagedList list={list} name={testId} error={error} loadingText="Loading invites…" empty={empty}>
    <ListTable
      label={label}
      testId={testId}
      rows={list.items}
      rowKey={(invite) => invite.id}
      rowTestId={(invite) => `${testId}-row-${invite.id}`}
      columns={[
        {
          header: party === 'invited' ? 'Invited' : 'From',
          cell: (invite) => (
            <>
              {party === 'invited' ? (
                <>
                  {invite.invited.name && `${invite.invited.name} · `}
                  {invite.invited.email}
                </>
              ) : (
                invite.inviterName
              )}
              <div className="muted small">{inviteTypeText(invite)}</div>
            </>
          ),
        },
        { header: 'Message', cell: (invite) => invite.message || <span className="muted">—</span> },
        {
          header: 'Status',
          cellData: (invite) => ({ 'data-testid': `${testId}-status-${invite.id}`, 'data-status': invite.status }),
          cell: (invite) => INVITE_STATUS_TEXT[invite.status],
        },
        { header: 'Sent', cell: (invite) => <When ms={invite.created} /> },
        {
          header: 'Actions',
          cell: (invite) => (
            <div className="actions">
              <Link to={`/invites/${invite.id}`} aria-label={`Open invite ${invite.id}`}>
                Open
              </Link>
              {actions(invite)}
            </div>
          ),
        },
      ]}
    />
  </PagedList>
);

/** The invites the person sent, newest first, with withdraw for those still waiting. */
export const SentInvites = ({ list }: { list: ListState<Invite> }) => {
  const users = useApi('users');
  const caller = useSignedInUser().id;
  const { busy, error, run } = useChanges<InviteBusy>();
  const withdraw = (invite: Invite) => {
    if (!window.confirm(`Withdraw the invite to ${invite.invited.email}?`)) return;
    void run(
      `withdraw:${invite.id}`,
      () => users.deleteInvite({ params: { id: invite.id } }),
      withdrawnInviteKeys(invite, caller),
    );
  };
  return (
    <section aria-labelledby="invites-sent-heading">
      <h3 id="invites-sent-heading">Invites you sent</h3>
      <InviteTable
        list={list}
        error={error}
        label="Invites you sent"
        testId="invites-sent"
        party="invited"
        empty="You have not invited anyone yet."
        actions={(invite) => (
          <button
            type="button"
            className="danger"
            data-testid={`invites-withdraw-${invite.id}`}
            aria-label={`Withdraw the invite to ${invite.invited.email}`}
            onClick={() => withdraw(invite)}
            disabled={busy === `withdraw:${invite.id}`}
          >
            {busy === `withdraw:${invite.id}` ? 'Withdrawing…' : 'Withdraw'}
          </button>
        )}
      />
    </section>
  );
};

/** Accept and decline buttons for an invite sent to the signed-in person. */
export const AnswerButtons = ({
  invite,
  busy,
  answer,
}: {
  invite: Invite;
  busy: string | undefined;
  answer: (status: 'accepted' | 'declined') => void;
}) =>
  invite.status === 'pending' && (
    <>
      <button
        type="button"
        className="primary"
        data-testid={`invite-accept-${invite.id}`}
        aria-label={`Accept the invite from ${invite.inviterName}`}
        onClick={() => answer('accepted')}
        disabled={busy !== undefined}
      >
        {busy === `accepted:${invite.id}` ? 'Accepting…' : 'Accept'}
      </button>
      <button
        type="button"
        data-testid={`invite-decline-${invite.id}`}
        aria-label={`Decline the invite from ${invite.inviterName}`}
        onClick={() => answer('declined')}
        disabled={busy !== undefined}
      >
        {busy === `declined:${invite.id}` ? 'Declining…' : 'Decline'}
      </button>
    </>
  );

/** The invites sent to the signed-in person's e-mail, with accept and decline. */
export const ReceivedInvites = ({ list, title = 'Invites for you' }: { list: ListState<Invite>; title?: string }) => {
  const users = useApi('users');
  const caller = useSignedInUser().id;
  const { busy, error, run } = useChanges<InviteBusy>();
  const answer = (invite: Invite) => (status: 'accepted' | 'declined') =>
    void run(
      `${status}:${invite.id}`,
      () => users.updateInvite({ params: { id: invite.id }, body: { status } }),
      answeredInviteKeys(invite, status, caller),
    );
  return (
    <section aria-labelledby="invites-received-heading">
      <h3 id="invites-received-heading">{title}</h3>
      <InviteTable
        list={list}
        error={error}
        label={title}
        testId="invites-received"
        party="inviter"
        empty="No invites for you."
        actions={(invite) => <AnswerButtons invite={invite} busy={busy} answer={answer(invite)} />}
      />
    </section>
  );
};

/** On the person's own profile: invite someone, the invites they sent, and those sent to them. */
export const InvitesPanel = ({ me }: { me: { id: string; name: string; email?: string } }) => {
  const sent = useInvites({ inviterId: me.id });
  const received = useInvites({ invitedEmail: me.email });
  return (
    <section className="panel section-grid" id="invites" aria-labelledby="invites-heading" data-testid="invites">
      <h2 id="invites-heading">Invites</h2>
      <InviteSomeone inviter={me} />
      <SentInvites list={sent} />
      {me.email && <ReceivedInvites list={received} />}
    </section>
  );
};
