import type { BillingEnv } from '../_shared/billing/stripe-client';
import { createAccountDeps } from './wiring/account';
import { createCommonDeps, type UsersEnv } from './wiring/common';
import { createNamesDeps } from './wiring/names';
import { createPeopleDeps } from './wiring/people';

export { readUsersEnv, USERS_ENV, type UsersEnv } from './wiring/common';

/**
 * The users area's API: people (wiring/people.ts), names (wiring/names.ts), invites and deletion (wiring/account.ts).
 * The deletion job and the identity provider's triggers import their own part (wiring/account.ts,
 * wiring/identity-events.ts, wiring/pre-sign-up.ts): their bundles hold nothing of the rest (billing's Stripe SDK least
 * of all).
 */
export const createUsersDeps = (env: UsersEnv, billing: BillingEnv) => {
  const common = createCommonDeps(env);
  return { ...createPeopleDeps(common, billing), ...createAccountDeps(common), ...createNamesDeps(common) };
};

export type UsersDeps = ReturnType<typeof createUsersDeps>;
