/**
 * What other features may use of the invites (docs/style.md §9, §17): the panels that list, send and answer them, and
 * the read of one's invites.
 */

export { useInvites } from './invites-api';
export { InvitesPanel, ReceivedInvites, SentInvites } from './invites-panel';
