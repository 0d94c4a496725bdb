import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { personName } from '../../lib/person-name';
import { routeKey, routeQuery, useRoutePages } from '../../lib/query';
import type { SessionUser } from '../../lib/session-user';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { SentInvites } from '../invites';
import { checkParticipantInvite } from './campaign-rules';

const EMPTY = { email: '', name: '', message: '' };

/**
 * "Invite a participant": an e-mailed invite that makes the person a campaign-participant when they accept,
 * and the participant invites the caller sent for this campaign.
 */
export const ParticipantInvites = ({ campaignId, user }: { campaignId: string; user: SessionUser }) => {
  const users = useApi('users');
  const [form, setForm] = useState(EMPTY);
  // The invite e-mail names the inviter: their display name when they have one.
  const me = useQuery(routeQuery('users', 'getUser', { params: { id: user.id } }));
  const inviterName = me.data ? personName(me.data) : (user.email ?? user.username);

  const sentRequest = {
    query: { limit: DEFAULT_PAGE_SIZE },
    body: { filters: { inviterId: user.id, type: 'campaign-participant' as const, objectId: campaignId } },
  };
  const list = useRoutePages('users', 'listInvites', sentRequest);

  const {
    submit,
    busy,
    error,
    fields,
    done: sent,
  } = useCheckedSubmit(
    () => checkParticipantInvite(form, { id: user.id, name: inviterName }, campaignId),
    async (body) => {
      const invite = await users.inviteUser({ body });
      setForm(EMPTY);
      return `Invite sent to ${invite.invited.email}.`;
    },
    [routeKey('users', 'listInvites')],
  );

  const set = (key: keyof typeof EMPTY) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  return (
    <section className="card section-card" aria-labelledby="participants-heading" data-testid="participant-invites">
      <h2 id="participants-heading">Participants</h2>
      <form className="create-form" onSubmit={submit} noValidate aria-label="Invite a participant">
        <h3>Invite a participant</h3>
        <ErrorAlert testId="participant-invite-error" error={error} />
        <DoneNote text={sent} testId="participant-invite-sent" />
        <TextField
          id="participant-invite-email"
          label="Their e-mail"
          type="email"
          value={form.email}
          onChange={set('email')}
          error={fields.invited}
        />
        <TextField
          id="participant-invite-name"
          label="Their name (optional)"
          value={form.name}
          onChange={set('name')}
        />
        <TextField
          id="participant-invite-message"
          label="Message (optional)"
          value={form.message}
          onChange={set('message')}
          error={fields.message}
          multiline
        />
        <SubmitButton testId="participant-invite-submit" busy={busy} busyText="Sending…">
          Send invite
        </SubmitButton>
      </form>
      <SentInvites list={list} />
    </section>
  );
};
