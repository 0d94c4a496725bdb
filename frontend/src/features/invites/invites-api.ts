import type { QueryKey } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Invite } from '../../../../shared/contracts/users';
import type { RelationType } from '../../../../shared/relations/relation-types';
import { type PagedList, routeKey, routePagesQuery, routeQuery, useRoutePages } from '../../lib/query';
import { relationChangeKeys } from '../relations';

/**
 * The invite screens' reads (docs/style.md §13), and the keys their changes invalidate: an invite shows on its own
 * page, in its inviter's lists of sent invites and in the lists of invites sent to its address.
 */

/** One invite: its page (`/invites/:id`). */
export const inviteQuery = (id: string) => routeQuery('users', 'getInvite', { params: { id } });

export interface InviteFilters {
  inviterId?: string;
  invitedEmail?: string;
  status?: Invite['status'];
}

/**
 * The signed-in person's invites as they are sent or received, newest first; nothing is listed without an
 * inviter or an address. The address is lowercased as the API does, so a change finds the list by it.
 */
export const useInvites = (filters: InviteFilters): PagedList<Invite> =>
  useRoutePages('users', 'listInvites', invitesRequest(filters), { enabled: listsAny(filters) });

const invitesRequest = ({ inviterId, invitedEmail, status }: InviteFilters) => ({
  query: { limit: DEFAULT_PAGE_SIZE },
  body: { filters: { inviterId, invitedEmail: invitedEmail?.trim().toLowerCase(), status } },
});

const listsAny = ({ inviterId, invitedEmail }: InviteFilters) => Boolean(inviterId || invitedEmail);

/** The first page `useInvites` shows, for a screen drawn with it (lib/first-reads.ts); undefined when it lists nothing. */
export const invitesFirstPage = (filters: InviteFilters) =>
  listsAny(filters) ? routePagesQuery('users', 'listInvites', invitesRequest(filters)) : undefined;

type InviteEnds = Pick<Invite, 'inviterId' | 'invited'>;

/** The lists an invite shows in: those of its inviter's invites, and of those sent to its address. */
export const inviteListKeys = ({ inviterId, invited }: InviteEnds): QueryKey[] => [
  ['users', 'listInvites', { body: { filters: { inviterId } } }],
  ['users', 'listInvites', { body: { filters: { invitedEmail: invited.email.toLowerCase() } } }],
];

/**
 * A new invite: the lists it joins, and the inviter's relations (the API records an inviter-invite relation
 * with it, whose referent, the new invite's id, is not known before it is made).
 */
export const newInviteKeys = (invite: InviteEnds): QueryKey[] => [
  ...inviteListKeys(invite),
  ['relations', 'listByReferrerId', { params: { id: invite.inviterId } }],
  routeKey('relations', 'listPage'),
];

/** An invite withdrawn: its page, its lists and the inviter-invite relation that goes with it. */
export const withdrawnInviteKeys = (invite: Invite, callerId: string): QueryKey[] => [
  inviteQuery(invite.id).queryKey,
  ...inviteListKeys(invite),
  ...relationChangeKeys({ type: 'inviter-invite', referrerId: invite.inviterId, referentId: invite.id }, callerId),
];

/**
 * An invite answered: its page and lists; accepted, the relations it stands for (the inviter's contact, and
 * the membership of the organization or campaign it is for) with the caller, who accepted, as referent.
 */
export const answeredInviteKeys = (invite: Invite, status: 'accepted' | 'declined', callerId: string): QueryKey[] => {
  const made: { type: RelationType; referrerId: string }[] =
    status === 'accepted'
      ? [
          { type: 'inviter-contact', referrerId: invite.inviterId },
          ...(invite.type !== 'inviter-contact' && invite.objectId
            ? [{ type: invite.type, referrerId: invite.objectId }]
            : []),
        ]
      : [];
  return [
    inviteQuery(invite.id).queryKey,
    ...inviteListKeys(invite),
    ...made.flatMap((relation) => relationChangeKeys({ ...relation, referentId: callerId }, callerId)),
  ];
};
