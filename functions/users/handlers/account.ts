import type { users } from '../../../shared/contracts/users';
import type { AreaPart } from '../../_shared/http/http-area';
import type { Account } from '../domain/account-deletion';
import type { Invites } from '../domain/invites';

/** What these routes need of the users area's dependencies (functions/users/deps.ts provides them). */
export interface AccountHandlerDeps {
  account: Account;
  invites: Invites;
}

export const accountHandlers = {
  inviteUser: ({ caller, body }, { invites }) => invites.create(caller, body),
  getInvite: ({ params }, { invites }) => invites.get(params.id),
  deleteInvite: ({ caller, params, audit }, { invites }) => invites.remove(caller, params.id, audit),
  listInvites: ({ caller, query, body }, { invites }) => invites.list(caller, body.filters, query),
  updateInvite: ({ caller, params, body, audit }, { invites }) => invites.update(caller, params.id, body, audit),
  updateUserRecord: ({ caller, params, body, audit }, { account }) =>
    account.updateRecord(caller, params.id, body, audit),
  addCartItem: ({ caller, params, body, audit }, { account }) => account.addCartItem(caller, params.id, body, audit),
  updateCartItem: ({ caller, params, body, audit }, { account }) =>
    account.setCartQuantity(caller, params.id, params, body.quantity, audit),
  removeCartItem: ({ caller, params, audit }, { account }) => account.removeCartItem(caller, params.id, params, audit),
  deleteUser: ({ caller, params, audit }, { account }) => account.queue(caller, params.id, audit),
  adminDeleteUser: ({ caller, params, audit }, { account }) => account.deleteNow(caller, params.id, audit),
} satisfies AreaPart<typeof users, AccountHandlerDeps>;
