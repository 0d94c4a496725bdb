import { AdminCreateUserCommand, AdminSetUserPasswordCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoClient, stack, uniqueId } from './stack';

/** A password the pool's policy accepts (10+ characters, upper, lower, digit). */
export const TEST_PASSWORD = 'E2e-Test-Passw0rd';

/** A fresh e-mail for a flow that changes its user: never a demo account. */
export const freshEmail = (prefix: string) => `${uniqueId(prefix)}@example.com`.toLowerCase();

/**
 * A new confirmed user with a verified e-mail, created through the admin API as an administrator would.
 * With `permanent: false` the password is temporary: the next sign-in must choose a new one.
 */
export const createTestUser = async ({
  prefix = 'e2e',
  password = TEST_PASSWORD,
  permanent = true,
}: {
  prefix?: string;
  password?: string;
  permanent?: boolean;
} = {}) => {
  const email = freshEmail(prefix);
  const { userPoolId } = stack().auth;
  const cognito = cognitoClient();
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  await cognito.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolId,
      Username: email,
      Password: password,
      Permanent: permanent,
    }),
  );
  return { email, password };
};
