import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminUserGlobalSignOutCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognitoClient, stack } from '../../support/stack';
import { freshUser, refreshWith, tokensOf } from './identity-support';

const revoked = { name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' };

const amplifyRefresh = (refreshToken: string) =>
  cognitoClient().send(
    new GetTokensFromRefreshTokenCommand({ ClientId: stack().auth.clientId, RefreshToken: refreshToken }),
  );

const claimsOf = (token: string | undefined) =>
  JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
const getUser = (accessToken: string | undefined) =>
  cognitoClient().send(new GetUserCommand({ AccessToken: accessToken }));

describe('sessions at the local identity provider, as Cognito keeps them', () => {
  it("revoking one browser's refresh token (its sign-out) refuses it and the access tokens it minted; the person's other sessions go on", async () => {
    const { email } = await freshUser();
    const signingOut = await tokensOf(email);
    const otherBrowser = await tokensOf(email);
    // As Cognito with token revocation on: access and ID tokens name the refresh token they belong to, which is
    // what makes Amplify's sign-out revoke it.
    const origin = claimsOf(signingOut.refreshToken).jti;
    expect(origin).toEqual(expect.any(String));
    expect(claimsOf(signingOut.accessToken).origin_jti).toBe(origin);
    const refreshed = (await amplifyRefresh(signingOut.refreshToken)).AuthenticationResult;
    expect([claimsOf(refreshed?.AccessToken).origin_jti, claimsOf(refreshed?.IdToken).origin_jti]).toEqual([
      origin,
      origin,
    ]);
    await expect(getUser(refreshed?.AccessToken)).resolves.toMatchObject({ Username: expect.any(String) });

    await cognitoClient().send(
      new RevokeTokenCommand({ ClientId: stack().auth.clientId, Token: signingOut.refreshToken }),
    );

    await expect(refreshWith(signingOut.refreshToken)).rejects.toMatchObject(revoked);
    await expect(amplifyRefresh(signingOut.refreshToken)).rejects.toMatchObject(revoked);
    for (const accessToken of [signingOut.accessToken, refreshed?.AccessToken]) {
      await expect(getUser(accessToken)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Access Token has been revoked',
      });
    }
    await expect(amplifyRefresh(otherBrowser.refreshToken)).resolves.toHaveProperty('AuthenticationResult.AccessToken');
    await expect(getUser(otherBrowser.accessToken)).resolves.toMatchObject({
      UserAttributes: expect.arrayContaining([{ Name: 'email', Value: email }]),
    });
    // A refresh token nobody issued is not taken for a revoked one.
    await expect(refreshWith(`${signingOut.refreshToken.slice(0, -4)}AAAA`)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Refresh Token',
    });
  });

  it('global sign-out revokes the refresh and access tokens issued before it; a new sign-in works and refreshes', async () => {
    const { email } = await freshUser();
    const before = await tokensOf(email);
    const otherDevice = await tokensOf(email);
    await expect(refreshWith(before.refreshToken)).resolves.toHaveProperty('AuthenticationResult.AccessToken');

    await cognitoClient().send(new GlobalSignOutCommand({ AccessToken: before.accessToken }));

    for (const session of [before, otherDevice]) {
      await expect(refreshWith(session.refreshToken)).rejects.toMatchObject(revoked);
      await expect(amplifyRefresh(session.refreshToken)).rejects.toMatchObject(revoked);
      await expect(
        cognitoClient().send(new GetUserCommand({ AccessToken: session.accessToken })),
      ).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Access Token has been revoked',
      });
    }
    const after = await tokensOf(email);
    await expect(amplifyRefresh(after.refreshToken)).resolves.toHaveProperty('AuthenticationResult.AccessToken');
    await expect(cognitoClient().send(new GetUserCommand({ AccessToken: after.accessToken }))).resolves.toMatchObject({
      UserAttributes: expect.arrayContaining([{ Name: 'email', Value: email }]),
    });
  });

  it('admin global sign-out (by e-mail) revokes the refresh tokens issued before it, of that user only', async () => {
    const [target, bystander] = await Promise.all([freshUser(), freshUser()]);
    const before = await tokensOf(target.email);
    const bystanderTokens = await tokensOf(bystander.email);

    await cognitoClient().send(
      new AdminUserGlobalSignOutCommand({ UserPoolId: stack().auth.userPoolId, Username: target.email }),
    );

    await expect(amplifyRefresh(before.refreshToken)).rejects.toMatchObject(revoked);
    await expect(amplifyRefresh(bystanderTokens.refreshToken)).resolves.toHaveProperty(
      'AuthenticationResult.AccessToken',
    );
    const after = await tokensOf(target.email);
    await expect(refreshWith(after.refreshToken)).resolves.toHaveProperty('AuthenticationResult.IdToken');
  });

  it('admin global sign-out of an unknown user is UserNotFoundException', async () => {
    await expect(
      cognitoClient().send(
        new AdminUserGlobalSignOutCommand({ UserPoolId: stack().auth.userPoolId, Username: 'nobody@example.com' }),
      ),
    ).rejects.toMatchObject({ name: 'UserNotFoundException', message: 'User does not exist.' });
  });

  it('a disabled user cannot refresh, and can again once enabled', async () => {
    const { email } = await freshUser();
    const { refreshToken } = await tokensOf(email);
    const { userPoolId } = stack().auth;

    await cognitoClient().send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: email }));
    const disabled = { name: 'NotAuthorizedException', message: 'User is disabled.' };
    await expect(refreshWith(refreshToken)).rejects.toMatchObject(disabled);
    await expect(amplifyRefresh(refreshToken)).rejects.toMatchObject(disabled);
    await expect(tokensOf(email)).rejects.toMatchObject(disabled);

    await cognitoClient().send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: email }));
    await expect(amplifyRefresh(refreshToken)).resolves.toHaveProperty('AuthenticationResult.AccessToken');
  });
});

describe('sign-in refusals in Cognito’s words', () => {
  it('answers a wrong password and an unknown user alike, as the web client (user-existence errors prevented) does', async () => {
    const { email } = await freshUser();
    const refusal = { name: 'NotAuthorizedException', message: 'Incorrect username or password.' };
    await expect(tokensOf(email, 'Wrong-Passw0rd-9')).rejects.toMatchObject(refusal);
    await expect(tokensOf('nobody@example.com')).rejects.toMatchObject(refusal);
  });

  it('answers an unknown refresh token with "Invalid Refresh Token"', async () => {
    await expect(refreshWith('not-a-refresh-token')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Refresh Token',
    });
  });
});
