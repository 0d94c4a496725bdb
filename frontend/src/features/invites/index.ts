/**
 * What other features may use of the invites (docs/style.md §9, §16, §17): the panels that list, send and answer them,
 * an invite form's fields, and the read of one's invites.
 */

export { invitesFirstPage, useInvites } from './invites-api';
export { EMPTY_INVITE_FORM, InviteFields, InvitesPanel, ReceivedInvites, SentInvites } from './invites-panel';
