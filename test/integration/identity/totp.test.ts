import {
  AssociateSoftwareTokenCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognitoClient, stack } from '../../support/stack';
import { freshTotp, totp } from '../../support/totp';
import { freshUser, passwordSignIn, refreshWith, tokensOf } from './identity-support';

describe('TOTP multi-factor sign-in at the local identity provider', () => {
  it('sets up an authenticator app and then asks for its code at sign-in', async () => {
    const { email } = await freshUser();
    const { accessToken } = await tokensOf(email);
    const { clientId } = stack().auth;

    // As Amplify's setUpTOTP / verifyTOTPSetup / updateMFAPreference call it.
    const { SecretCode } = await cognitoClient().send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    expect(SecretCode).toMatch(/^[A-Z2-7]+=*$/);
    await expect(
      cognitoClient().send(
        new VerifySoftwareTokenCommand({
          AccessToken: accessToken,
          UserCode: totp(SecretCode!, { time: Date.now() - 10 * 60_000 }),
        }),
      ),
    ).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await expect(
      cognitoClient().send(
        new VerifySoftwareTokenCommand({
          AccessToken: accessToken,
          UserCode: await freshTotp(SecretCode!),
          FriendlyDeviceName: 'phone',
        }),
      ),
    ).resolves.toMatchObject({ Status: 'SUCCESS' });
    await cognitoClient().send(
      new SetUserMFAPreferenceCommand({
        AccessToken: accessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );

    const challenge = await passwordSignIn(email);
    expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(challenge.AuthenticationResult).toBeUndefined();
    const respond = (code: string) =>
      cognitoClient().send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenge.Session,
          ChallengeResponses: {
            USERNAME: challenge.ChallengeParameters!.USER_ID_FOR_SRP!,
            SOFTWARE_TOKEN_MFA_CODE: code,
          },
        }),
      );
    await expect(respond(totp(SecretCode!, { time: Date.now() - 10 * 60_000 }))).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    const signedIn = await respond(await freshTotp(SecretCode!));
    expect(signedIn.AuthenticationResult?.AccessToken).toBeDefined();

    // A session finished by the MFA challenge refreshes like any other.
    await expect(refreshWith(signedIn.AuthenticationResult!.RefreshToken!)).resolves.toHaveProperty(
      'AuthenticationResult.AccessToken',
    );
  });
});
