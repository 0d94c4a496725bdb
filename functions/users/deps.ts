import { randomInt, randomUUID } from 'node:crypto';
import { USER_POOL } from '../../infra/definitions/auth';
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
import { createMailer } from '../_shared/mail/mailer';
import { ACCOUNT_ENV, createAccountDeps } from './account-deps';
import { createPeople, temporaryPassword } from './domain/people';
import { createAuthEventStore } from './store/auth-event-store';
import { createBackupStore } from './store/backup-store';
import { createBillingCustomers } from './store/billing-customers';
import { createIdentityProvider } from './store/identity-provider';
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

export const USERS_ENV = { ...PEOPLE_ENV, ...ACCOUNT_ENV } as const;

/** Billing (STRIPE_SECRET_KEY or STRIPE_SECRET_ARN, and locally STRIPE_API_URL) is read by readBillingEnv. */
export const createPeopleDeps = (env: Record<keyof typeof PEOPLE_ENV, string>, billing: BillingEnv) => {
  const db = getDocumentClient();
  const stripe = stripeClientProvider(billing, secretsManagerReader(getSecretsManagerClient()));
  return {
    people: createPeople({
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
      newPassword: () => temporaryPassword(USER_POOL.passwordPolicy, randomInt),
    }),
  };
};

/** The users area: people (here) and invites and account deletion (account-deps.ts). */
export const createUsersDeps = (env = readEnv(USERS_ENV), billing = readBillingEnv()) => ({
  ...createPeopleDeps(env, billing),
  ...createAccountDeps(env),
});

export type UsersDeps = ReturnType<typeof createUsersDeps>;
