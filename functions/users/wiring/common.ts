import { randomUUID } from 'node:crypto';
import { PERSON_HOLDINGS_ENV } from '../../_shared/account/holdings-wiring';
import { getCognitoClient, getDocumentClient, getSesClient, getSqsClient } from '../../_shared/clients';
import { type EnvSource, readEnv } from '../../_shared/env';
import { createEventPublisher } from '../../_shared/events/event-publisher';
import { createMailer } from '../../_shared/mail/mailer';
import { createRelationWrites } from '../../_shared/relations/relation-wiring';
import type { ProviderLabel } from '../domain/sign-in-methods';
import { createAuthEventStore } from '../store/auth-event-store';
import { createIdentityProvider } from '../store/identity-provider';
import { createUserStore } from '../store/user-store';

/**
 * What invites and account deletion read: the users area's Lambda and its deletion job (the CDK sets each from
 * SERVICE_RESOURCES.users; the local stack likewise).
 */
export const ACCOUNT_ENV = {
  /** Other areas' tables an account's deletion reaches (its alert rules, its webhooks). */
  ...PERSON_HOLDINGS_ENV,
  usersTable: 'USERS_TABLE',
  authEventsTable: 'AUTH_EVENTS_TABLE',
  accessVersionsTable: 'ACCESS_VERSIONS_TABLE',
  invitesTable: 'INVITES_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  userPoolId: 'USER_POOL_ID',
  mailFrom: 'MAIL_FROM',
  /** Links in e-mail point into the web app: invites to `{WEB_ORIGIN}/invites/{id}`. */
  webOrigin: 'WEB_ORIGIN',
} as const;

/**
 * What the users area's Lambda reads besides: the names people may see of each other, and the pool's backups. Billing
 * (STRIPE_SECRET_KEY or STRIPE_SECRET_ARN, and locally STRIPE_API_URL) is read by readBillingEnv.
 */
export const USERS_ENV = {
  ...ACCOUNT_ENV,
  peopleLookupsTable: 'PEOPLE_LOOKUPS_TABLE',
  userBackupsBucket: 'USER_BACKUPS_BUCKET',
  /** The environment's identity providers with their labels (how people sign in). */
  signInProviders: 'SIGN_IN_PROVIDERS',
} as const;

export type AccountEnv = Record<keyof typeof ACCOUNT_ENV, string>;

/** The deletion job's settings, read and checked once at cold start. */
export const readAccountEnv = (env?: EnvSource): AccountEnv => readEnv(ACCOUNT_ENV, env);

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
  if (!valid) throw new Error(`${USERS_ENV.signInProviders} is not a JSON list of { name, label } providers`);
  return (list as ProviderLabel[]).map(({ name, label }) => ({ name, ...(label ? { label } : {}) }));
};

/** The area's settings, read and checked once at cold start. */
export const readUsersEnv = (env?: EnvSource) => {
  const { signInProviders, ...names } = readEnv(USERS_ENV, env);
  return { ...names, signInProviders: readSignInProviders(signInProviders) };
};

export type UsersEnv = ReturnType<typeof readUsersEnv>;

/** What every part of the area shares: the people's records, the user pool, mail, events and relation writes. */
export const createCommonDeps = <E extends AccountEnv>(env: E) => {
  const db = getDocumentClient();
  return {
    env,
    db,
    users: createUserStore({ db, tableName: env.usersTable }),
    authEvents: createAuthEventStore({ db, tableName: env.authEventsTable }),
    identity: createIdentityProvider({ cognito: getCognitoClient(), userPoolId: env.userPoolId }),
    mailer: createMailer({ ses: getSesClient(), from: env.mailFrom }),
    events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
    /** The relation table, the access versions and the effects of relation writes. */
    relations: createRelationWrites(env),
    now: Date.now,
    newId: randomUUID,
  };
};

/** The common deps of the area's API (the default) or of its deletion job (`CommonDeps<AccountEnv>`). */
export type CommonDeps<E extends AccountEnv = UsersEnv> = ReturnType<typeof createCommonDeps<E>>;
