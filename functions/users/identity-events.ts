import { randomUUID } from 'node:crypto';
import type { AuthEvent } from '../../shared/contracts/users';
import { getDocumentClient } from '../_shared/clients';
import { type CognitoTriggerEvent, cognitoTrigger } from '../_shared/cognito/cognito-trigger';
import { readEnv } from '../_shared/env';
import { type AuthEventStore, createAuthEventStore } from './store/auth-event-store';
import { createUserStore, type UserStore } from './store/user-store';

/**
 * The identity provider's PostAuthentication and PostConfirmation triggers (COGNITO_TRIGGERS): each sign-in,
 * confirmed sign-up and confirmed password reset becomes an auth event of the platform's own, and the person's
 * platform record is created when they have none. Cognito keeps no auth events on a pool without its
 * advanced-security add-on, so the Users API lists these (docs/decisions/004).
 */

const EVENT_TYPES: Record<CognitoTriggerEvent['triggerSource'], AuthEvent['type']> = {
  PostAuthentication_Authentication: 'SignIn',
  PostConfirmation_ConfirmSignUp: 'SignUp',
  PostConfirmation_ConfirmForgotPassword: 'ForgotPassword',
};

export interface IdentityEventDeps {
  authEvents: Pick<AuthEventStore, 'record'>;
  users: Pick<UserStore, 'ensure'>;
  now: () => number;
  newId: () => string;
}

/** A trigger reaches us only once Cognito has let the person in or confirmed them: the event passed. */
export const authEventOf = (event: CognitoTriggerEvent, time: number, id: string): AuthEvent => ({
  id,
  type: EVENT_TYPES[event.triggerSource],
  time,
  response: 'Pass',
  source: 'platform',
});

/** Records the event and ensures the person's record; one failing does not keep the other from being done. */
export const recordIdentityEvent = async (
  event: CognitoTriggerEvent,
  { authEvents, users, now, newId }: IdentityEventDeps,
): Promise<void> => {
  const time = now();
  const attributes = event.request.userAttributes;
  // The user's id is the `sub` every token carries; in a pool signed into by e-mail it is the user name too.
  const userId = attributes.sub ?? event.userName;
  const email = attributes.email;
  const results = await Promise.allSettled([
    authEvents.record({ userId, ...authEventOf(event, time, newId()) }),
    email
      ? users.ensure({
          id: userId,
          email,
          givenName: attributes.given_name,
          familyName: attributes.family_name,
          // A trigger event names no groups; a new person has none, and an existing record is left as it is.
          roles: [],
          now: time,
        })
      : Promise.reject(new Error('The user has no e-mail attribute: no platform record created')),
  ]);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failures.length > 0) throw new AggregateError(failures, 'Recording the identity event failed');
};

const env = readEnv({ authEventsTable: 'AUTH_EVENTS_TABLE', usersTable: 'USERS_TABLE' });

export const handler = cognitoTrigger<CognitoTriggerEvent, IdentityEventDeps>(
  {
    name: 'identity-events',
    deps: () => {
      const db = getDocumentClient();
      return {
        authEvents: createAuthEventStore({ db, tableName: env.authEventsTable }),
        users: createUserStore({ db, tableName: env.usersTable }),
        now: Date.now,
        newId: randomUUID,
      };
    },
  },
  recordIdentityEvent,
);
