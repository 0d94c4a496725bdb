import {
  AdminConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
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
