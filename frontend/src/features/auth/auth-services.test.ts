import { type AmplifyAuth, createAuthServices } from './auth-services';

type Call = { fn: string; input: unknown };

/** Fake Amplify calls: record the input, answer from a script (a value, or an error to throw). */
const fakeAmplify = (script: Partial<Record<keyof AmplifyAuth, unknown[]>> = {}) => {
  const calls: Call[] = [];
  const answer = (fn: keyof AmplifyAuth) => async (input: unknown) => {
    calls.push({ fn, input });
    const next = script[fn]?.shift() ?? { isSignedIn: true, nextStep: { signInStep: 'DONE', signUpStep: 'DONE' } };
    if (next instanceof Error) throw next;
    return next;
  };
  const amplify = Object.fromEntries(
    (
      [
        'signIn',
        'signUp',
        'confirmSignUp',
        'resendSignUpCode',
        'confirmSignIn',
        'resetPassword',
        'confirmResetPassword',
      ] as const
    ).map((fn) => [fn, answer(fn)]),
  ) as unknown as AmplifyAuth;
  return { amplify, calls };
};

const serviceError = (name: string, message: string, httpStatusCode?: number) =>
  Object.assign(new Error(message), { name, metadata: httpStatusCode ? { httpStatusCode } : undefined });

const noWait = { sleep: async () => undefined };

describe('Authenticator services', () => {
  it('signs in with the configured auth flow and a trimmed username', async () => {
    const { amplify, calls } = fakeAmplify();
    const services = createAuthServices({ authFlowType: 'USER_PASSWORD_AUTH', amplify });
    await services.handleSignIn({ username: ' a@example.com ', password: 'pw', options: { clientMetadata: {} } });
    expect(calls).toEqual([
      {
        fn: 'signIn',
        input: {
          username: 'a@example.com',
          password: 'pw',
          options: { clientMetadata: {}, authFlowType: 'USER_PASSWORD_AUTH' },
        },
      },
    ]);
  });

  it('signs in as the name this browser is remembered for, so Amplify finds its device', async () => {
    const { amplify, calls } = fakeAmplify();
    const names: Record<string, string> = { 'a@example.com': '0b6e-uuid' };
    const services = createAuthServices({
      authFlowType: 'USER_PASSWORD_AUTH',
      amplify,
      signInName: (typed) => names[typed] ?? typed,
    });
    await services.handleSignIn({ username: ' a@example.com ', password: 'pw' });
    await services.handleSignIn({ username: 'b@example.com', password: 'pw' });
    expect(calls.map((call) => (call.input as { username: string }).username)).toEqual(['0b6e-uuid', 'b@example.com']);
  });

  it('reports a confirmed sign-up, and only a complete one', async () => {
    const { amplify } = fakeAmplify({
      confirmSignUp: [
        { isSignUpComplete: false, nextStep: { signUpStep: 'CONFIRM_SIGN_UP' } },
        { isSignUpComplete: true, nextStep: { signUpStep: 'COMPLETE_AUTO_SIGN_IN' } },
      ],
    });
    let signedUp = 0;
    const services = createAuthServices({ authFlowType: 'USER_PASSWORD_AUTH', amplify, onSignedUp: () => signedUp++ });
    await services.handleConfirmSignUp({ username: 'a@example.com', confirmationCode: '123456' });
    expect(signedUp).toBe(0);
    await services.handleConfirmSignUp({ username: 'a@example.com', confirmationCode: '123456' });
    expect(signedUp).toBe(1);
  });

  it('refuses empty fields with the spec messages before calling anything', async () => {
    const { amplify, calls } = fakeAmplify();
    const services = createAuthServices({ authFlowType: 'USER_SRP_AUTH', amplify });
    await expect(services.handleSignIn({ username: ' ', password: 'pw' })).rejects.toThrow('Username cannot be empty');
    await expect(services.handleSignIn({ username: 'a@example.com', password: '' })).rejects.toThrow(
      'Password cannot be empty',
    );
    await expect(services.handleConfirmSignUp({ username: 'a@example.com', confirmationCode: '' })).rejects.toThrow(
      'Confirmation code cannot be empty',
    );
    await expect(
      services.handleForgotPasswordSubmit({ username: 'a@example.com', confirmationCode: '', newPassword: 'x' }),
    ).rejects.toThrow('Confirmation code cannot be empty');
    await expect(services.handleForgotPassword({ username: '' })).rejects.toThrow('Username cannot be empty');
    await expect(services.handleConfirmSignIn({ challengeResponse: '' })).rejects.toThrow(
      'Confirmation code cannot be empty',
    );
    expect(calls).toEqual([]);
  });

  it('asks for a password, not a code, when the challenge is a forced new password', async () => {
    const { amplify } = fakeAmplify({
      signIn: [{ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' } }],
    });
    const services = createAuthServices({ authFlowType: 'USER_SRP_AUTH', amplify });
    await services.handleSignIn({ username: 'a@example.com', password: 'temporary' });
    await expect(services.handleConfirmSignIn({ challengeResponse: '' })).rejects.toThrow('Password cannot be empty');
  });

  it('retries sign-in on network errors and 5xx, then succeeds', async () => {
    const { amplify, calls } = fakeAmplify({
      signIn: [
        serviceError('NetworkError', 'A network error has occurred.'),
        serviceError('InternalErrorException', 'boom', 503),
      ],
    });
    const services = createAuthServices({ authFlowType: 'USER_SRP_AUTH', amplify, retry: noWait });
    await expect(services.handleSignIn({ username: 'a@example.com', password: 'pw' })).resolves.toMatchObject({
      isSignedIn: true,
    });
    expect(calls).toHaveLength(3);
  });

  it('says "Network Error" when the retries run out, and passes wrong passwords through at once', async () => {
    const down = serviceError('NetworkError', 'A network error has occurred.');
    const { amplify, calls } = fakeAmplify({
      signIn: [down, down, down, down, serviceError('NotAuthorizedException', 'Incorrect username or password.', 400)],
    });
    const services = createAuthServices({ authFlowType: 'USER_SRP_AUTH', amplify, retry: noWait });
    await expect(services.handleSignIn({ username: 'a@example.com', password: 'pw' })).rejects.toThrow(
      /^Network Error$/,
    );
    expect(calls).toHaveLength(4);
    await expect(services.handleSignIn({ username: 'a@example.com', password: 'pw' })).rejects.toThrow(
      'Incorrect username or password.',
    );
    expect(calls).toHaveLength(5);
  });

  it('signs up with automatic sign-in through the configured flow', async () => {
    const { amplify, calls } = fakeAmplify();
    const services = createAuthServices({ authFlowType: 'USER_PASSWORD_AUTH', amplify });
    await services.handleSignUp({
      username: 'new@example.com',
      password: 'pw',
      options: { autoSignIn: true, userAttributes: { email: 'new@example.com' } },
    });
    expect(calls[0]).toEqual({
      fn: 'signUp',
      input: {
        username: 'new@example.com',
        password: 'pw',
        options: { autoSignIn: { authFlowType: 'USER_PASSWORD_AUTH' }, userAttributes: { email: 'new@example.com' } },
      },
    });
  });
});
