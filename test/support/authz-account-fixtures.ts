import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createRelationTable } from '../../functions/_shared/relations/relation-table';
import { createInviteStore } from '../../functions/users/store/invite-store';
import type { Invite } from '../../shared/contracts/users';
import { relationId } from '../../shared/relations/relation-types';
import {
  CALLERS,
  type CallerName,
  type FixtureContext,
  type FixtureRequest,
  type RouteFixture,
} from './authz-fixture-types';
import { freshUser } from './people';
import { seedRelation } from './relations';
import { type DemoEmail, documentClient, stack, subOf, uniqueId } from './stack';

/**
 * The authorization matrix's fixtures for the invite and account routes of the users area
 * (functions/users/handlers/account.ts). Nothing here changes a demo account's record or state: changes
 * land on fresh people, and the routes that would change the caller themself (queueing their own deletion,
 * changing their record) set `twin`, so the matrix calls them as a fresh account with the caller's groups,
 * named in `context.self`.
 */

type AccountContext = FixtureContext & { self?: { id: string } };
type AccountFixture = Omit<RouteFixture, 'prepare' | 'owned' | 'foreign'> & {
  twin?: boolean;
  prepare: (context: AccountContext) => Promise<FixtureRequest>;
  owned?: (context: AccountContext) => Promise<FixtureRequest>;
  foreign?: (context: AccountContext) => Promise<FixtureRequest>;
};

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail;

const selfId = async (context: AccountContext) => context.self?.id ?? subOf(emailOf(context.caller));

const someoneElse = async () => (await freshUser({ prefix: 'authz-account' })).id;

/** Test set-up only: an invite as POST /inviteUser/ stores it (with its inviter-invite relation), without the e-mail. */
const seedInvite = async (inviterId: string): Promise<Invite> => {
  const now = Date.now();
  const invite: Invite = {
    id: randomUUID(),
    type: 'inviter-contact',
    inviterId,
    inviterName: 'Matrix',
    invited: { email: `${uniqueId('authz-invited')}@example.com` },
    status: 'pending',
    created: now,
    updated: now,
  };
  const db = documentClient();
  await createInviteStore({ db, tableName: stack().tables.invites! }).create(invite);
  await createRelationTable({ db, tableName: stack().tables.relations! }).put({
    id: relationId('inviter-invite', inviterId, invite.id),
    type: 'inviter-invite',
    referrerId: inviterId,
    referentId: invite.id,
    created: now,
  });
  return invite;
};

/** A route on an invite: the caller's own invite, or someone else's (staff only). */
const onInvite = (request: (invite: Invite) => FixtureRequest): AccountFixture => ({
  prepare: async (context) => request(await seedInvite(await selfId(context))),
  owned: async (context) => request(await seedInvite(await selfId(context))),
  foreign: async () => request(await seedInvite(await someoneElse())),
});

/** A membership invite to a fresh organization: `managed` by the caller, or by someone else. */
const membershipInvite = async (context: AccountContext, managed: boolean): Promise<FixtureRequest> => {
  const me = await selfId(context);
  const orgId = uniqueId('authz-invite-org');
  await seedRelation('organization-manager', orgId, managed ? me : await someoneElse());
  return {
    body: {
      type: 'organization-user',
      inviterId: me,
      inviterName: 'Matrix',
      invited: { email: `${uniqueId('authz-invited')}@example.com` },
      objectId: orgId,
    },
  };
};

/** Whose cart a cart route changes: the twin's own, never a demo account's. */
const cartOwner = async (context: AccountContext) => context.self?.id ?? (await someoneElse());

const cartItem = () => ({ productId: 'prod_sd1_tier2', deviceId: uniqueId('authz-cart-device'), quantity: 1 });

/** Test set-up only: an item put straight into a person's cart on their record; answers the route's params. */
const seedCartItem = async (userId: string) => {
  const { quantity: _q, ...item } = cartItem();
  await documentClient().send(
    new UpdateCommand({
      TableName: stack().tables.users!,
      Key: { id: userId },
      UpdateExpression: 'SET cartItems = list_append(if_not_exists(cartItems, :none), :item)',
      ExpressionAttributeValues: { ':none': [], ':item': [{ ...item, quantity: 1 }] },
    }),
  );
  return { id: userId, ...item };
};

export const ACCOUNT_FIXTURES: Record<string, AccountFixture> = {
  inviteUser: {
    prepare: async (context) => ({
      body: {
        type: 'inviter-contact',
        inviterId: await selfId(context),
        inviterName: 'Matrix',
        invited: { email: `${uniqueId('authz-invited')}@example.com` },
      },
    }),
    owned: (context) => membershipInvite(context, true),
    foreign: (context) => membershipInvite(context, false),
  },
  getInvite: { prepare: async () => ({ params: { id: (await seedInvite(await someoneElse())).id } }) },
  deleteInvite: onInvite((invite) => ({ params: { id: invite.id } })),
  listInvites: {
    prepare: async (context) => ({ query: { limit: 5 }, body: { filters: { inviterId: await selfId(context) } } }),
    owned: async (context) => ({ body: { filters: { inviterId: await selfId(context) } } }),
    foreign: async () => ({ body: { filters: { inviterId: await someoneElse() } } }),
  },
  updateInvite: onInvite((invite) => ({ params: { id: invite.id }, body: { message: 'Edited by the matrix' } })),
  updateUserRecord: {
    twin: true,
    prepare: async (context) => ({ params: { id: await selfId(context) }, body: { localCacheTime: Date.now() } }),
    owned: async (context) => ({ params: { id: await selfId(context) }, body: { localCacheTime: Date.now() } }),
    foreign: async () => ({ params: { id: await someoneElse() }, body: { localCacheTime: Date.now() } }),
  },
  // The cart changes the caller's own record: as the twin, or (guests, forged tokens) a fresh person's.
  addCartItem: {
    twin: true,
    prepare: async (context) => ({ params: { id: await cartOwner(context) }, body: cartItem() }),
    owned: async (context) => ({ params: { id: await cartOwner(context) }, body: cartItem() }),
    foreign: async () => ({ params: { id: await someoneElse() }, body: cartItem() }),
  },
  updateCartItem: {
    twin: true,
    prepare: async (context) => ({ params: await seedCartItem(await cartOwner(context)), body: { quantity: 2 } }),
    owned: async (context) => ({ params: await seedCartItem(await cartOwner(context)), body: { quantity: 2 } }),
    foreign: async () => ({ params: await seedCartItem(await someoneElse()), body: { quantity: 2 } }),
  },
  removeCartItem: {
    twin: true,
    prepare: async (context) => ({ params: await seedCartItem(await cartOwner(context)) }),
    owned: async (context) => ({ params: await seedCartItem(await cartOwner(context)) }),
    foreign: async () => ({ params: await seedCartItem(await someoneElse()) }),
  },
  // Queueing one's own deletion disables the caller: only ever as the twin. Without one (e.g. the forged-token
  // case) it targets a fresh person, never a demo account.
  deleteUser: {
    twin: true,
    prepare: async (context) => ({ params: { id: context.self?.id ?? (await someoneElse()) } }),
    owned: async (context) => ({ params: { id: context.self!.id } }),
    // A fresh person (never a demo account): were the refusal to fail, nobody the suite needs would be gone.
    foreign: async () => ({ params: { id: await someoneElse() } }),
  },
  adminDeleteUser: { prepare: async () => ({ params: { id: await someoneElse() } }) },
};
