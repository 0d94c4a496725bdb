import { randomBytes } from 'node:crypto';
import {
  AdminConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { s256 } from '../../../infra/local/cognito-compat/hosted-rules';
import { HOSTED_ENDPOINTS, hostedUrlsOf } from '../../../shared/auth/hosted-sign-in';
import { cognitoClient, documentClient, stack, uniqueId } from '../../support/stack';

export const PASSWORD = 'Fresh-Passw0rd-1';

/** A new person of the local pool (never a demo account): signed up, and confirmed unless asked not to. */
export const freshUser = async ({ confirm = true } = {}) => {
  const email = `${uniqueId('identity')}@example.com`;
  const { UserSub } = await cognitoClient().send(
    new SignUpCommand({
      ClientId: stack().auth.clientId,
      Username: email,
      Password: PASSWORD,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'given_name', Value: 'Ada' },
        { Name: 'family_name', Value: 'Lovelace' },
      ],
    }),
  );
  if (confirm) {
    await cognitoClient().send(new AdminConfirmSignUpCommand({ UserPoolId: stack().auth.userPoolId, Username: email }));
  }
  return { email, sub: UserSub! };
};

export const passwordSignIn = async (email: string, password = PASSWORD) =>
  cognitoClient().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: stack().auth.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );

export const tokensOf = async (email: string, password = PASSWORD) => {
  const result = (await passwordSignIn(email, password)).AuthenticationResult;
  if (!result?.AccessToken || !result.RefreshToken) throw new Error(`No tokens for ${email}`);
  return { accessToken: result.AccessToken, refreshToken: result.RefreshToken };
};

export const refreshWith = (refreshToken: string) =>
  cognitoClient().send(
    new InitiateAuthCommand({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: stack().auth.clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  );

/** The auth events the platform recorded for a person, newest first, read straight from the table. */
export const recordedEvents = async (userId: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: stack().tables.authEvents,
        KeyConditionExpression: 'userId = :user',
        ExpressionAttributeValues: { ':user': userId },
        ScanIndexForward: false,
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

/** The local web app's origin: the hosted sign-in's callback and sign-out URLs are made from it. */
export const webOrigin = () => {
  const web = stack().endpoints.web;
  if (!web) throw new Error('The test stack runs without the web app');
  return web;
};
export const callbackUrl = () => hostedUrlsOf(webOrigin()).callbackUrl;
export const clientId = () => stack().auth.clientId;

/** A PKCE verifier and its S256 challenge, as the web app makes them. */
export const newPkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
};

/** The web app's authorize request at the identity layer; `overrides` change or (undefined) drop a field. */
export const authorizeUrl = (
  challenge: string,
  overrides: Record<string, string | undefined> = {},
  base = stack().endpoints.cognito,
) => {
  const url = new URL(`${base}${HOSTED_ENDPOINTS.authorize}`);
  const fields = {
    response_type: 'code',
    client_id: clientId(),
    redirect_uri: callbackUrl(),
    state: 'state-1',
    scope: 'openid email profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
};
