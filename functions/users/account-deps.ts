import { randomUUID } from 'node:crypto';
import { getCognitoClient, getDocumentClient, getSesClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { log } from '../_shared/logger';
import { createMailer } from '../_shared/mail/mailer';
import { createRelationWrites } from '../_shared/relations/relation-wiring';
import { createAccount } from './domain/account-deletion';
import { createInvites } from './domain/invites';
import { createAccountIdentity } from './store/account-identity';
import { createAuthEventStore } from './store/auth-event-store';
import { createIdentityProvider } from './store/identity-provider';
import { createInviteStore } from './store/invite-store';
import { createUserStore } from './store/user-store';

/** What invites and account deletion read: the users area's Lambda and the deletion job both get these. */
export const ACCOUNT_ENV = {
  usersTable: 'USERS_TABLE',
  invitesTable: 'INVITES_TABLE',
  authEventsTable: 'AUTH_EVENTS_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  accessVersionsTable: 'ACCESS_VERSIONS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  userPoolId: 'USER_POOL_ID',
  mailFrom: 'MAIL_FROM',
  /** The web app's origin: invite e-mails link to `{WEB_ORIGIN}/invites/{id}`. */
  webOrigin: 'WEB_ORIGIN',
} as const;

/** Invites and account deletion over the real tables, user pool, queue and SES. */
export const createAccountDeps = (env = readEnv(ACCOUNT_ENV)) => {
  const db = getDocumentClient();
  const users = createUserStore({ db, tableName: env.usersTable });
  const invites = createInviteStore({ db, tableName: env.invitesTable });
  const { table, versions: sessions, effects } = createRelationWrites(env);
  const mailer = createMailer({ ses: getSesClient(), from: env.mailFrom });
  return {
    account: createAccount({
      log,
      users,
      invites,
      table,
      effects,
      sessions,
      identity: createAccountIdentity({
        provider: createIdentityProvider({ cognito: getCognitoClient(), userPoolId: env.userPoolId }),
      }),
      authEvents: createAuthEventStore({ db, tableName: env.authEventsTable }),
      mailer,
      now: Date.now,
    }),
    invites: createInvites({
      log,
      invites,
      users,
      table,
      effects,
      mailer,
      webOrigin: env.webOrigin,
      now: Date.now,
      newId: randomUUID,
    }),
  };
};
