import { randomUUID } from 'node:crypto';
import { getCognitoClient, getDocumentClient } from '../../_shared/clients';
import { type EnvSource, readEnv } from '../../_shared/env';
import { createAuthEventStore } from '../store/auth-event-store';
import { createFederatedAccounts } from '../store/federated-accounts';
import { createUserStore } from '../store/user-store';

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
