import {
  AdminGetUserCommand,
  AdminResetUserPasswordCommand,
  ConfirmForgotPasswordCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { codeFromMail, mailTo } from '../../support/mail';
import { cognitoClient, stack } from '../../support/stack';
import { freshUser, PASSWORD, passwordSignIn, recordedEvents, tokensOf } from './identity-support';

const NEW_PASSWORD = 'Second-Passw0rd-2';

describe('admin password reset at the local identity provider, as Cognito does it', () => {
  it('requires a reset: sign-in is refused until the e-mailed code sets a new password', async () => {
    const { email, sub } = await freshUser();
    const { userPoolId, clientId } = stack().auth;
    const mailsBefore = (await mailTo(email)).length;

    await cognitoClient().send(new AdminResetUserPasswordCommand({ UserPoolId: userPoolId, Username: email }));

    const user = await cognitoClient().send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
    expect(user.UserStatus).toBe('RESET_REQUIRED');
    await expect(passwordSignIn(email)).rejects.toMatchObject({
      name: 'PasswordResetRequiredException',
      message: 'Password reset required for the user',
    });
    const code = await codeFromMail(email, mailsBefore + 1);

    const confirm = (confirmationCode: string, password: string) =>
      cognitoClient().send(
        new ConfirmForgotPasswordCommand({
          ClientId: clientId,
          Username: email,
          ConfirmationCode: confirmationCode,
          Password: password,
        }),
      );
    await expect(confirm(code === '000000' ? '111111' : '000000', NEW_PASSWORD)).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    await expect(confirm(code, 'weak')).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    await confirm(code, NEW_PASSWORD);

    await expect(tokensOf(email, NEW_PASSWORD)).resolves.toHaveProperty('accessToken');
    await expect(passwordSignIn(email, PASSWORD)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    // The confirmed reset reaches the PostConfirmation trigger like Cognito's.
    expect((await recordedEvents(sub)).map((event) => event.type)).toContain('ForgotPassword');
  });

  it('refuses an unknown user with UserNotFoundException', async () => {
    await expect(
      cognitoClient().send(
        new AdminResetUserPasswordCommand({ UserPoolId: stack().auth.userPoolId, Username: 'nobody@example.com' }),
      ),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });
});
