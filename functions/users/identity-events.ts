import { SIGNED_UP_GROUP } from '../../shared/auth/groups';
import type { AuthEvent } from '../../shared/contracts/users';
import { type CognitoTriggerEvent, cognitoTrigger } from '../_shared/cognito/cognito-trigger';
import type { AuthEventStore, UserStore } from './domain/ports';
import { PASSWORD_METHOD, signInMethodsOf } from './domain/sign-in-methods';
import { createIdentityEventDeps, readIdentityEventsEnv } from './wiring/identity-events';

/**
 * The identity provider's PostAuthentication and PostConfirmation triggers (COGNITO_TRIGGERS): each sign-in,
 * confirmed sign-up and confirmed password reset becomes an auth event of the platform's own, and the person's
 * platform record is created when they have none. Cognito keeps no auth events on a pool without its
 * advanced-security add-on, so the Users API lists these (docs/decisions/004). A person's first sign-in through an
 * identity provider (a confirmed sign-up Cognito made for the login) also puts them in Authenticated_users. How the
 * person signs in is kept on the record (domain/sign-in-methods.ts): set when the record is made, and a provider's
 * login linked to a password account is added at the sign-in through it (see {@link recordIdentityEvent}).
 */

const EVENT_TYPES: Record<CognitoTriggerEvent['triggerSource'], AuthEvent['type']> = {
  PostAuthentication_Authentication: 'SignIn',
  PostConfirmation_ConfirmSignUp: 'SignUp',
  PostConfirmation_ConfirmForgotPassword: 'ForgotPassword',
};

export interface IdentityEventDeps {
  authEvents: Pick<AuthEventStore, 'record'>;
  users: Pick<UserStore, 'ensure' | 'addSignInMethods'>;
  /** Adds a pool's user to a group; the pool is the event's (the trigger cannot be told its own pool). */
  groups: { add: (userPoolId: string, userName: string, group: string) => Promise<void> };
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

/**
 * Cognito confirms the account it makes for a provider's first login by itself (status `EXTERNAL_PROVIDER`, the
 * login in `identities`); an e-mail-and-password sign-up has neither when it is confirmed.
 */
export const isFederatedSignUp = (event: CognitoTriggerEvent): boolean =>
  event.triggerSource === 'PostConfirmation_ConfirmSignUp' &&
  (event.request.userAttributes['cognito:user_status'] === 'EXTERNAL_PROVIDER' ||
    Boolean(event.request.userAttributes.identities));

/**
 * The sign-in methods to add to an existing record at this event, if any. A link is made by the PreSignUp trigger
 * (cloud) or the local identity layer, in the sign-in through the provider that this PostAuthentication closes: the
 * linked account's `identities` name the provider from then on. Kept here rather than at PreSignUp: that trigger is
 * fail-closed and holds no table grant, and the local home links without it; this trigger runs in both homes, and
 * at every later sign-in adds again what a lost write or a link made in Cognito's console left out. A password-only
 * sign-in writes nothing: a record without methods reads as password.
 */
export const methodsToAdd = (event: CognitoTriggerEvent): string[] => {
  const methods = signInMethodsOf({ userName: event.userName, attributes: event.request.userAttributes });
  return methods.length === 1 && methods[0] === PASSWORD_METHOD ? [] : methods;
};

/**
 * Records the event, ensures the person's record (with how they signed up) and, for a federated sign-up, their group;
 * at a sign-in, adds a linked provider's login to the record's methods. One failing does not keep the others from
 * being done.
 */
export const recordIdentityEvent = async (
  event: CognitoTriggerEvent,
  { authEvents, users, groups, now, newId }: IdentityEventDeps,
): Promise<void> => {
  const time = now();
  const attributes = event.request.userAttributes;
  const federated = isFederatedSignUp(event);
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
          // A trigger event names no groups: a new person has none but the one joined here, and an existing record
          // is left as it is.
          roles: federated ? [SIGNED_UP_GROUP] : [],
          // A password sign-up is `password`; a federated one its provider (decided from the event alone).
          signInMethods: signInMethodsOf({ userName: event.userName, attributes }),
          now: time,
        })
      : Promise.reject(new Error('The user has no e-mail attribute: no platform record created')),
    federated ? groups.add(event.userPoolId, event.userName, SIGNED_UP_GROUP) : Promise.resolve(),
    event.triggerSource === 'PostAuthentication_Authentication' && methodsToAdd(event).length > 0
      ? users.addSignInMethods(userId, methodsToAdd(event))
      : Promise.resolve(),
  ]);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failures.length > 0) throw new AggregateError(failures, 'Recording the identity event failed');
};

const env = readIdentityEventsEnv();

export const handler = cognitoTrigger<CognitoTriggerEvent, IdentityEventDeps>(
  { name: 'identity-events', deps: () => createIdentityEventDeps(env) },
  recordIdentityEvent,
);
