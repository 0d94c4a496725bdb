import { randomInt, randomUUID } from 'node:crypto';
import { PASSWORD_POLICY } from '../../shared/auth/password-policy';
import { createAccessVersionStore } from '../_shared/access/access-version-store';
import {
  type BillingEnv,
  readBillingEnv,
  secretsManagerReader,
  stripeClientProvider,
} from '../_shared/billing/stripe-client';
import {
  getCognitoClient,
  getDocumentClient,
  getS3Client,
  getSecretsManagerClient,
  getSesClient,
  getSqsClient,
} from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { log } from '../_shared/logger';
import { createMailer } from '../_shared/mail/mailer';
import { createRelationTable } from '../_shared/relations/relation-table';
import { ACCOUNT_ENV, createAccountDeps } from './account-deps';
import { createPeople, temporaryPassword } from './domain/people';
import { createPeopleNames } from './domain/people-names';
import type { ProviderLabel } from './domain/sign-in-methods';
import { createAuthEventStore } from './store/auth-event-store';
import { createBackupStore } from './store/backup-store';
import { createBillingCustomers } from './store/billing-customers';
import { createIdentityProvider } from './store/identity-provider';
import { createLookupCounter } from './store/lookup-counter';
import { createUserStore } from './store/user-store';

/** What the people routes read (the CDK sets each from SERVICE_RESOURCES.users; the local stack likewise). */
export const PEOPLE_ENV = {
  usersTable: 'USERS_TABLE',
  authEventsTable: 'AUTH_EVENTS_TABLE',
  accessVersionsTable: 'ACCESS_VERSIONS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  userBackupsBucket: 'USER_BACKUPS_BUCKET',
  userPoolId: 'USER_POOL_ID',
  mailFrom: 'MAIL_FROM',
  /** Links in e-mail point into the web app. */
  webOrigin: 'WEB_ORIGIN',
} as const;

/**
 * What the names and e-mail look-up read: who shares what (relations), records, the look-up counters, and the
 * environment's identity providers with their labels (how people sign in).
 */
export const NAMES_ENV = {
  usersTable: 'USERS_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  peopleLookupsTable: 'PEOPLE_LOOKUPS_TABLE',
  signInProviders: 'SIGN_IN_PROVIDERS',
} as const;

/**
 * SIGN_IN_PROVIDERS as the CDK and the local stack write it: a JSON list of `{ name, label }` (`[]` when the
 * environment has none). Anything else stops the cold start rather than showing raw names by accident.
 */
export const readSignInProviders = (text: string): ProviderLabel[] => {
  const list: unknown = JSON.parse(text);
  const valid =
    Array.isArray(list) &&
    list.every(
      (p) =>
        p && typeof p.name === 'string' && p.name.length > 0 && (p.label === undefined || typeof p.label === 'string'),
    );
  if (!valid) throw new Error(`${NAMES_ENV.signInProviders} is not a JSON list of { name, label } providers`);
  return (list as ProviderLabel[]).map(({ name, label }) => ({ name, ...(label ? { label } : {}) }));
};

export const USERS_ENV = { ...PEOPLE_ENV, ...ACCOUNT_ENV, ...NAMES_ENV } as const;

/** People's names as others may see them, and the picker's exact-e-mail look-up (docs/users.md). */
export const createNamesDeps = (env: Record<keyof typeof NAMES_ENV, string>) => {
  const db = getDocumentClient();
  const relations = createRelationTable({ db, tableName: env.relationsTable });
  const users = createUserStore({ db, tableName: env.usersTable });
  return {
    names: createPeopleNames({
      relationsTo: async (id) => {
        const all = [];
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await relations.queryIndex('referent', id, { limit: 100, startKey });
          all.push(...page.items);
          startKey = page.lastKey;
        } while (startKey);
        return all;
      },
      contactsFrom: (id) => relations.queryAll('referrer', id, ['inviter-contact']),
      users,
      lookups: createLookupCounter({ db, tableName: env.peopleLookupsTable }),
      signInProviders: readSignInProviders(env.signInProviders),
      now: Date.now,
    }),
  };
};

/** Billing (STRIPE_SECRET_KEY or STRIPE_SECRET_ARN, and locally STRIPE_API_URL) is read by readBillingEnv. */
export const createPeopleDeps = (env: Record<keyof typeof PEOPLE_ENV, string>, billing: BillingEnv) => {
  const db = getDocumentClient();
  const stripe = stripeClientProvider(billing, secretsManagerReader(getSecretsManagerClient()));
  return {
    people: createPeople({
      log,
      identity: createIdentityProvider({ cognito: getCognitoClient(), userPoolId: env.userPoolId }),
      users: createUserStore({ db, tableName: env.usersTable }),
      sessions: createAccessVersionStore({ db, tableName: env.accessVersionsTable }),
      mailer: createMailer({ ses: getSesClient(), from: env.mailFrom }),
      backups: createBackupStore({ s3: getS3Client(), bucket: env.userBackupsBucket }),
      events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      recordedAuthEvents: createAuthEventStore({ db, tableName: env.authEventsTable }),
      findCustomerIdByEmail: createBillingCustomers({ stripe }).findCustomerIdByEmail,
      webOrigin: env.webOrigin,
      now: Date.now,
      newId: randomUUID,
      newPassword: () => temporaryPassword(PASSWORD_POLICY, randomInt),
    }),
  };
};

/** The users area: people (here) and invites and account deletion (account-deps.ts). */
export const createUsersDeps = (env = readEnv(USERS_ENV), billing = readBillingEnv()) => ({
  ...createPeopleDeps(env, billing),
  ...createAccountDeps(env),
  ...createNamesDeps(env),
});

export type UsersDeps = ReturnType<typeof createUsersDeps>;
