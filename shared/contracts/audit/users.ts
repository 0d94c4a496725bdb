import { callerInPath, defineAudit, notAudited, personInPath } from '../define-audit';
import type { users } from '../users';

/**
 * Staff actions on people (docs/audit.md): every call of a staff-only route, and a staff member's call on another
 * person's account through the routes open to the person themself.
 */
export const usersAudit = /* @__PURE__ */ defineAudit<typeof users>({
  backupUserPool: {
    action: 'users.backup',
    label: 'Exported every person and group to the backup bucket',
    target: { kind: 'backup', id: ({ body }) => body.directory },
  },
  listUsers: notAudited('a read'),
  usersByGroups: notAudited('a read'),
  usersDdbWithBatchGet: notAudited('a read with a body'),
  listUserIdsFromDdb: notAudited('a read with a body'),
  peopleNames: notAudited('a read with a body'),
  // Its rate counter is housekeeping, not a change a person made.
  findPersonByEmail: notAudited('a read with a body'),
  listUsersInGroup: notAudited('a read'),
  filterUsersByFirstLast: notAudited('a read'),
  listInvites: notAudited('a read with a body'),
  disableUser: {
    action: 'user.disable',
    label: 'Disabled a person',
    target: personInPath,
    after: () => ({ enabled: false }),
  },
  enableUser: {
    action: 'user.enable',
    label: 'Enabled a person',
    target: personInPath,
    after: () => ({ enabled: true }),
  },
  newUserNotice: {
    action: 'user.new-user-notice',
    label: "Sent the administrators a person's new-user notice",
    target: personInPath,
    own: callerInPath,
  },
  emailUser: {
    action: 'user.email',
    label: 'Sent an e-mail',
    target: { kind: 'email', id: ({ body }) => body.email.toAddresses.join(', ') },
  },
  addUserToGroup: { action: 'user.group.add', label: 'Added a person to a group', target: personInPath },
  removeUserFromGroup: { action: 'user.group.remove', label: 'Removed a person from a group', target: personInPath },
  updateUser: {
    action: 'user.names.update',
    label: "Changed a person's names",
    target: personInPath,
    own: callerInPath,
  },
  updateUserRecord: {
    action: 'user.record.update',
    label: "Changed a person's record",
    variant: {
      action: 'user.deletion.unqueue',
      label: "Cancelled a person's queued deletion",
      when: ({ body }) => body.deletion === 'unqueue',
    },
    target: personInPath,
    // Cancelling a deletion is staff's only, even on their own account.
    own: (request, callerId) => callerInPath(request, callerId) && request.body.deletion === undefined,
  },
  addCartItem: { action: 'user.cart.add', label: "Added to a person's cart", target: personInPath, own: callerInPath },
  updateCartItem: {
    action: 'user.cart.update',
    label: "Changed a quantity in a person's cart",
    target: personInPath,
    own: callerInPath,
  },
  removeCartItem: {
    action: 'user.cart.remove',
    label: "Took an item out of a person's cart",
    target: personInPath,
    own: callerInPath,
  },
  deleteUser: {
    action: 'user.deletion.queue',
    label: "Queued a person's account for deletion",
    target: personInPath,
    own: callerInPath,
  },
  adminDeleteUser: { action: 'user.delete', label: "Deleted a person's account now", target: personInPath },
  adminResetUserPassword: {
    action: 'user.password.reset',
    label: "Reset a person's password (a code e-mailed to them)",
    target: personInPath,
    after: () => ({ status: 'RESET_REQUIRED' }),
  },
  forceResetPassword: {
    action: 'user.password.force-reset',
    label: 'Gave a person a temporary password (e-mailed to them)',
    target: personInPath,
    after: () => ({ status: 'FORCE_CHANGE_PASSWORD' }),
  },
  adminUserGlobalSignOut: {
    action: 'user.sign-out',
    label: 'Signed a person out everywhere',
    target: personInPath,
    own: callerInPath,
  },
  inviteUser: {
    action: 'invite.create',
    label: 'Invited a person',
    target: { kind: 'invite', id: (_request, invite) => invite?.id },
    // An invite to be one's own contact uses no staff power.
    own: ({ body }) => body.type === 'inviter-contact',
  },
  deleteInvite: {
    action: 'invite.delete',
    label: 'Withdrew an invite',
    target: { kind: 'invite', id: ({ params }) => params.id },
  },
  updateInvite: {
    action: 'invite.update',
    label: 'Changed an invite',
    target: { kind: 'invite', id: ({ params }) => params.id },
    // Accepting or declining is the invited person's own answer.
    own: ({ body }) => body.status !== undefined && body.message === undefined && body.invited === undefined,
  },
});
