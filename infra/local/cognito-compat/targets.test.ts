import { jest } from '@jest/globals';
import type { Context } from 'cognito-local/lib/services/context';
import type { User, UserPoolService } from 'cognito-local/lib/services/userPoolService';
import type { SignOutRegistry } from './sign-outs';
import { type CognitoRouter, fault, maskedEmail, withCompatTargets } from './targets';

const jwt = (claims: Record<string, unknown>) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const ctx = { logger: { debug: () => undefined } } as unknown as Context;

const setup = () => {
  const user: User = {
    Username: 'ada-sub',
    Attributes: [{ Name: 'email', Value: 'ada@example.com' }],
    Enabled: true,
    UserStatus: 'CONFIRMED',
    Password: 'x',
    RefreshTokens: [],
    UserCreateDate: new Date(NOW),
    UserLastModifiedDate: new Date(NOW),
  };
  const refreshToken = jwt({ 'cognito:username': 'ada-sub', iat: NOW / 1000 - 60 });
  const pool = {
    options: { Id: 'local_pool' },
    getUserByUsername: async (_: Context, name: string) =>
      name === 'ada-sub' || name === 'ada@example.com' ? user : null,
    getUserByRefreshToken: async (_: Context, token: string) => (token === refreshToken ? user : null),
    saveUser: jest.fn(async () => undefined),
    storeRefreshToken: jest.fn(async () => undefined),
  } as unknown as UserPoolService;
  const signedOut = new Map<string, number>();
  const signOuts: SignOutRegistry = {
    signedOutAt: (name) => signedOut.get(name),
    record: async (name, at) => {
      signedOut.set(name, at);
    },
  };
  const upstream = jest.fn(async (_ctx: Context, _req: unknown): Promise<unknown> => ({ AuthenticationResult: {} }));
  const base: CognitoRouter = () => upstream;
  const messages = { deliver: jest.fn(async () => undefined) };
  const router = withCompatTargets(
    base,
    {
      cognito: { getUserPoolForClientId: async () => pool, getUserPool: async () => pool } as never,
      messages: messages as never,
      otp: () => '123456',
      clock: { get: () => new Date(NOW) },
    },
    signOuts,
    async () => undefined,
  );
  const refresh = () =>
    router('InitiateAuth')(ctx, {
      ClientId: 'web',
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    });
  return { user, pool, router, refresh, upstream, messages, signedOut };
};

describe('the compatibility targets composed into cognito-local', () => {
  it('refuses a refresh token issued before the user’s global sign-out, without asking cognito-local', async () => {
    const { router, refresh, upstream, signedOut } = setup();
    await expect(refresh()).resolves.toBeDefined();
    await router('AdminUserGlobalSignOut')(ctx, { UserPoolId: 'local_pool', Username: 'ada@example.com' });
    expect(signedOut.get('ada-sub')).toBe(NOW);
    upstream.mockClear();
    await expect(refresh()).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    });
    expect(upstream).not.toHaveBeenCalled();
  });

  it('refuses a refresh and every access-token call of a disabled user', async () => {
    const { user, router, refresh } = setup();
    user.Enabled = false;
    const disabled = { code: 'NotAuthorizedException', message: 'User is disabled.' };
    await expect(refresh()).rejects.toMatchObject(disabled);
    await expect(
      router('GetUser')(ctx, { AccessToken: jwt({ client_id: 'web', username: 'ada-sub', iat: NOW / 1000 }) }),
    ).rejects.toMatchObject(disabled);
  });

  it('refuses an access token issued before a global sign-out on any operation', async () => {
    const { router, upstream } = setup();
    const accessToken = jwt({ client_id: 'web', username: 'ada-sub', iat: NOW / 1000 - 5 });
    await router('GlobalSignOut')(ctx, { AccessToken: accessToken });
    upstream.mockClear();
    await expect(router('ChangePassword')(ctx, { AccessToken: accessToken })).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    });
    expect(upstream).not.toHaveBeenCalled();
  });

  it.each([
    ['a wrong password', fault('InvalidPasswordException', 'Invalid password'), 'Incorrect username or password.'],
    ['an unknown user', fault('NotAuthorizedException', 'User not authorized'), 'Incorrect username or password.'],
    [
      'a reset password',
      fault('PasswordResetRequiredException', 'Password reset required'),
      'Password reset required for the user',
    ],
  ])('words the refusal of %s as Cognito does', async (_case, error, message) => {
    const { router, upstream } = setup();
    upstream.mockRejectedValueOnce(error);
    await expect(
      router('InitiateAuth')(ctx, {
        ClientId: 'web',
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'ada@example.com', PASSWORD: 'wrong' },
      }),
    ).rejects.toMatchObject({ message });
  });

  it('words a wrong current password on ChangePassword as Cognito does', async () => {
    const { router, upstream } = setup();
    upstream.mockRejectedValueOnce(fault('InvalidPasswordException', 'Invalid password'));
    await expect(
      router('ChangePassword')(ctx, {
        AccessToken: jwt({ client_id: 'web', username: 'ada-sub', iat: NOW / 1000 }),
        PreviousPassword: 'wrong',
        ProposedPassword: 'Another-Passw0rd',
      }),
    ).rejects.toMatchObject({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
  });

  it('offers the new-password challenge only for the right temporary password', async () => {
    const { user, router, upstream } = setup();
    user.UserStatus = 'FORCE_CHANGE_PASSWORD';
    const signIn = (password: string) =>
      router('InitiateAuth')(ctx, {
        ClientId: 'web',
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'ada@example.com', PASSWORD: password },
      });
    await expect(signIn('wrong')).rejects.toMatchObject({ message: 'Incorrect username or password.' });
    expect(upstream).not.toHaveBeenCalled();
    await expect(signIn('x')).resolves.toBeDefined();
  });

  it('resets a password: the user must reset, and the code goes out by e-mail', async () => {
    const { router, pool, messages } = setup();
    await router('AdminResetUserPassword')(ctx, { UserPoolId: 'local_pool', Username: 'ada@example.com' });
    expect(messages.deliver).toHaveBeenCalledWith(
      ctx,
      'ForgotPassword',
      null,
      'local_pool',
      expect.objectContaining({ Username: 'ada-sub' }),
      '123456',
      undefined,
      { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'ada@example.com' },
    );
    expect(pool.saveUser).toHaveBeenCalledWith(
      ctx,
      expect.objectContaining({ UserStatus: 'RESET_REQUIRED', ConfirmationCode: '123456' }),
    );
  });

  it('keeps the refresh token of a sign-in finished by a challenge, so it can refresh', async () => {
    const { router, pool, upstream } = setup();
    upstream.mockResolvedValueOnce({ AuthenticationResult: { RefreshToken: 'refresh-after-mfa' } });
    await router('RespondToAuthChallenge')(ctx, {
      ClientId: 'web',
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      ChallengeResponses: { USERNAME: 'ada-sub', SOFTWARE_TOKEN_MFA_CODE: '000000' },
    });
    expect(pool.storeRefreshToken).toHaveBeenCalledWith(
      ctx,
      'refresh-after-mfa',
      expect.objectContaining({ Username: 'ada-sub' }),
    );
  });

  it('marks the e-mail verified when the e-mailed sign-up code confirms the account, and only then', async () => {
    const { router, pool, user, upstream } = setup();
    Object.assign(user, { UserStatus: 'UNCONFIRMED', ConfirmationCode: '424242' });
    Object.assign(pool.options, { AutoVerifiedAttributes: ['email'] });
    const confirm = (code: string) =>
      router('ConfirmSignUp')(ctx, { ClientId: 'web', Username: 'ada@example.com', ConfirmationCode: code });

    await confirm('000000');
    expect(pool.saveUser).not.toHaveBeenCalled();
    await confirm('424242');
    expect(pool.saveUser).toHaveBeenCalledWith(
      ctx,
      expect.objectContaining({
        Username: 'ada-sub',
        Attributes: [
          { Name: 'email', Value: 'ada@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    // cognito-local still checks the code and confirms the account (and runs PostConfirmation) as before.
    expect(upstream).toHaveBeenCalledTimes(2);
  });

  it('answers AdminListUserAuthEvents as a pool without the advanced-security add-on', async () => {
    await expect(setup().router('AdminListUserAuthEvents')(ctx, {})).rejects.toMatchObject({
      code: 'UserPoolAddOnNotEnabledException',
    });
  });

  it('masks an e-mail address as Cognito shows where a code went', () => {
    expect(maskedEmail('ada@example.com')).toBe('a***@e***');
  });
});
