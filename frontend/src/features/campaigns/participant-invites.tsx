import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { EditForm } from '../../components/edit-form';
import { useApi } from '../../lib/api';
import { personName } from '../../lib/person-name';
import { routeKey, routeQuery, useRoutePages } from '../../lib/query';
import type { SessionUser } from '../../lib/session-user';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { EMPTY_INVITE_FORM, InviteFields, SentInvites } from '../invites';
import { checkParticipantInvite } from './campaign-rules';

/**
 * "Invite a participant": an e-mailed invite that makes the person a campaign-participant when they accept,
 * and the participant invites the caller sent for this campaign.
 */
export const ParticipantInvites = ({ campaignId, user }: { campaignId: string; user: SessionUser }) => {
  const users = useApi('users');
  const [form, setForm] = useState(EMPTY_INVITE_FORM);
  // The invite e-mail names the inviter: their display name when they have one.
  const me = useQuery(routeQuery('users', 'getUser', { params: { id: user.id } }));
  const inviterName = me.data ? personName(me.data) : (user.email ?? user.username);

  const sentRequest = {
    query: { limit: DEFAULT_PAGE_SIZE },
    body: { filters: { inviterId: user.id, type: 'campaign-participant' as const, objectId: campaignId } },
  };
  const list = useRoutePages('users', 'listInvites', sentRequest);

  const invite = useCheckedSubmit(
    () => checkParticipantInvite(form, { id: user.id, name: inviterName }, campaignId),
    async (body) => {
      const made = await users.inviteUser({ body });
      setForm(EMPTY_INVITE_FORM);
      return `Invite sent to ${made.invited.email}.`;
    },
    [routeKey('users', 'listInvites')],
  );

  return (
    <section className="card section-card" aria-labelledby="participants-heading" data-testid="participant-invites">
      <h2 id="participants-heading">Participants</h2>
      <EditForm
        name="participant-invite"
        title="Invite a participant"
        level={3}
        className="create-form"
        form={invite}
        submitText="Send invite"
        busyText="Sending…"
      >
        <InviteFields prefix="participant-invite" form={form} onChange={setForm} fields={invite.fields} />
      </EditForm>
      <SentInvites list={list} />
    </section>
  );
};
