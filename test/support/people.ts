import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { GroupName } from '../../shared/auth/groups';
import { cognitoClient, stack, subOfToken, uniqueId } from './stack';

/** A password the pool's policy accepts (10+ characters, upper, lower, digit). */
export const FRESH_PASSWORD = 'People-Passw0rd-1';

/** A sign-in through the real SDK that is never cached: each call is a new session with new tokens. */
export const signInFresh = async (email: string, password = FRESH_PASSWORD) => {
  const result = await cognitoClient().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: stack().auth.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  if (!result.AuthenticationResult?.AccessToken) {
    throw new Error(`Sign-in of ${email} answered a challenge: ${result.ChallengeName ?? 'none'}`);
  }
  return result.AuthenticationResult.AccessToken;
};

export interface FreshUser {
  id: string;
  email: string;
  password: string;
  /** An access token from a sign-in after the groups were set. */
  token: string;
  givenName: string;
  familyName: string;
}

/** A fresh e-mail for a flow that changes its user: never a demo account. */
export const freshEmail = (prefix: string) => `${uniqueId(prefix)}@example.com`.toLowerCase();

/**
 * A new confirmed person with a verified e-mail, created through the admin API as an administrator would. With
 * `permanent: false` the password is temporary: the next sign-in must choose a new one.
 */
export const createPerson = async ({
  prefix = 'people',
  password = FRESH_PASSWORD,
  permanent = true,
  names,
}: {
  prefix?: string;
  password?: string;
  permanent?: boolean;
  names?: { givenName: string; familyName: string };
} = {}) => {
  const email = freshEmail(prefix);
  const { userPoolId: UserPoolId } = stack().auth;
  const cognito = cognitoClient();
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId,
      Username: email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
        ...(names
          ? [
              { Name: 'given_name', Value: names.givenName },
              { Name: 'family_name', Value: names.familyName },
            ]
          : []),
      ],
    }),
  );
  await cognito.send(
    new AdminSetUserPasswordCommand({ UserPoolId, Username: email, Password: password, Permanent: permanent }),
  );
  return { email, password };
};

/**
 * A new confirmed person in the local pool (createPerson), added to `groups`, and signed in (which also creates
 * the platform's record of them). Tests that disable, sign out or change someone use one of these, never a demo
 * account: demo tokens are cached per run.
 */
export const freshUser = async ({
  groups = [],
  givenName = 'Fresh',
  familyName = uniqueId('Person'),
  prefix = 'people',
}: {
  groups?: readonly GroupName[];
  givenName?: string;
  familyName?: string;
  prefix?: string;
} = {}): Promise<FreshUser> => {
  const { email } = await createPerson({ prefix, names: { givenName, familyName } });
  const { userPoolId: UserPoolId } = stack().auth;
  for (const group of groups) {
    await cognitoClient().send(new AdminAddUserToGroupCommand({ UserPoolId, Username: email, GroupName: group }));
  }
  const token = await signInFresh(email);
  return { id: subOfToken(token), email, password: FRESH_PASSWORD, token, givenName, familyName };
};

/** Waits past the current second: sign-out times compare with tokens' `auth_time`, which is whole seconds. */
export const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100 - (Date.now() % 1_000)));
