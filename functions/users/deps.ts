import { randomUUID } from 'node:crypto';
import type { BillingEnv } from '../_shared/billing/stripe-client';
import { getCognitoClient, getDocumentClient } from '../_shared/clients';
import { type EnvSource, readEnv } from '../_shared/env';
import { createAuthEventStore } from './store/auth-event-store';
import { createFederatedAccounts } from './store/federated-accounts';
import { createUserStore } from './store/user-store';
import { createAccountDeps } from './wiring/account';
import { createCommonDeps, type UsersEnv } from './wiring/common';
import { createNamesDeps } from './wiring/names';
import { createPeopleDeps } from './wiring/people';

export { readUsersEnv, USERS_ENV, type UsersEnv } from './wiring/common';

/** The users area's API: people (wiring/people.ts), names (wiring/names.ts), invites and deletion (wiring/account.ts). */
export const createUsersDeps = (env: UsersEnv, billing: BillingEnv) => {
  const common = createCommonDeps(env);
  return { ...createPeopleDeps(common, billing), ...createAccountDeps(common), ...createNamesDeps(common) };
};

export type UsersDeps = ReturnType<typeof createUsersDeps>;

/** The deletion job's part: account deletion alone, without billing (the job gets no Stripe key). */
export const createDeletionJobDeps = (env: UsersEnv) => createAccountDeps(createCommonDeps(env));

/** What the identity provider's PostAuthentication and PostConfirmation trigger reads (COGNITO_TRIGGERS). */
export const IDENTITY_EVENTS_ENV = { authEventsTable: 'AUTH_EVENTS_TABLE', usersTable: 'USERS_TABLE' } as const;

export const readIdentityEventsEnv = (env?: EnvSource) => readEnv(IDENTITY_EVENTS_ENV, env);

/**
 * The trigger's records and the pool's groups. The user pool comes from the event (the trigger cannot be told its own
 * pool's id without a CloudFormation cycle); the Cognito client is built at the first federated sign-up only, since
 * every other event of this trigger needs none.
 */
export const createIdentityEventDeps = (env: ReturnType<typeof readIdentityEventsEnv>) => {
  const db = getDocumentClient();
  let accounts: ReturnType<typeof createFederatedAccounts> | undefined;
  return {
    authEvents: createAuthEventStore({ db, tableName: env.authEventsTable }),
    users: createUserStore({ db, tableName: env.usersTable }),
    groups: {
      add: (userPoolId: string, userName: string, group: string) => {
        accounts ??= createFederatedAccounts({ cognito: getCognitoClient() });
        return accounts.addToGroup(userPoolId, userName, group);
      },
    },
    now: Date.now,
    newId: randomUUID,
  };
};

/** The names of the providers the environment trusts for linking, as JSON (`providersTrustedForLinking`). */
const TRUSTED_PROVIDERS_ENV = 'LINKING_TRUSTED_PROVIDERS';

/**
 * What the identity provider's PreSignUp trigger reads: the trusted list as the CDK writes it; anything else stops the
 * cold start rather than trusting by accident.
 */
export const readPreSignUpEnv = (env?: EnvSource) => {
  const list: unknown = JSON.parse(readEnv({ list: TRUSTED_PROVIDERS_ENV }, env).list);
  // Checked by hand, not with zod: the trigger's bundle stays small (it runs before every sign-up).
  if (!Array.isArray(list) || !list.every((name) => typeof name === 'string' && name.length > 0)) {
    throw new Error(`${TRUSTED_PROVIDERS_ENV} is not a JSON list of provider names`);
  }
  return { trustedProviders: list as string[] };
};

/** The linking rule's reads of the pool: the pool is the event's, as for the identity events. */
export const createPreSignUpDeps = ({ trustedProviders }: ReturnType<typeof readPreSignUpEnv>) => ({
  trustedProviders,
  accounts: createFederatedAccounts({ cognito: getCognitoClient() }),
});
