import { jest } from '@jest/globals';
import type { Context, PostAuthenticationTriggerEvent, PostConfirmationTriggerEvent } from 'aws-lambda';
import type { IdentityEventDeps } from './identity-events';

// The module reads its environment at import, as a Lambda does at cold start.
process.env.AUTH_EVENTS_TABLE ??= 'users-test-auth-events';
process.env.USERS_TABLE ??= 'users-test-users';
const { authEventOf, handler, isFederatedSignUp, methodsToAdd, recordIdentityEvent } = await import(
  './identity-events'
);

const common = {
  version: '1',
  region: 'us-west-2',
  userPoolId: 'us-west-2_pool',
  userName: 'ada-sub',
  callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'web' },
  response: {},
};
const attributes = { sub: 'ada-sub', email: 'ada@example.com', given_name: 'Ada', family_name: 'Lovelace' };
const signIn: PostAuthenticationTriggerEvent = {
  ...common,
  triggerSource: 'PostAuthentication_Authentication',
  request: { userAttributes: attributes, newDeviceUsed: false },
};
const confirmation = (
  triggerSource: PostConfirmationTriggerEvent['triggerSource'],
  userAttributes: Record<string, string> = attributes,
): PostConfirmationTriggerEvent => ({ ...common, triggerSource, request: { userAttributes } });

const fakeDeps = () => {
  const deps = {
    authEvents: { record: jest.fn<IdentityEventDeps['authEvents']['record']>(async () => undefined) },
    users: {
      ensure: jest.fn<IdentityEventDeps['users']['ensure']>(async () => true),
      addSignInMethods: jest.fn<IdentityEventDeps['users']['addSignInMethods']>(async () => true),
    },
    groups: { add: jest.fn<IdentityEventDeps['groups']['add']>(async () => undefined) },
    now: () => 1_767_225_600_000,
    newId: () => 'event-1',
  };
  return deps;
};

describe('identity events (Cognito PostAuthentication and PostConfirmation)', () => {
  it.each([
    [signIn, 'SignIn'],
    [confirmation('PostConfirmation_ConfirmSignUp'), 'SignUp'],
    [confirmation('PostConfirmation_ConfirmForgotPassword'), 'ForgotPassword'],
  ] as const)('records %#: %s, passed, from the platform', (event, type) => {
    expect(authEventOf(event, 5, 'id-1')).toEqual({ id: 'id-1', type, time: 5, response: 'Pass', source: 'platform' });
  });

  it('records the event under the sub and ensures the person’s record from the attributes', async () => {
    const deps = fakeDeps();
    await recordIdentityEvent(confirmation('PostConfirmation_ConfirmSignUp'), deps);
    expect(deps.authEvents.record).toHaveBeenCalledWith({
      userId: 'ada-sub',
      id: 'event-1',
      type: 'SignUp',
      time: 1_767_225_600_000,
      response: 'Pass',
      source: 'platform',
    });
    expect(deps.users.ensure).toHaveBeenCalledWith({
      id: 'ada-sub',
      email: 'ada@example.com',
      givenName: 'Ada',
      familyName: 'Lovelace',
      roles: [],
      signInMethods: ['password'],
      now: 1_767_225_600_000,
    });
  });

  it('puts no e-mail-and-password sign-up in a group', async () => {
    const deps = fakeDeps();
    await recordIdentityEvent(
      confirmation('PostConfirmation_ConfirmSignUp', { ...attributes, 'cognito:user_status': 'CONFIRMED' }),
      deps,
    );
    expect(deps.groups.add).not.toHaveBeenCalled();
  });

  it('puts a first sign-in through an identity provider in Authenticated_users, pool and record alike', async () => {
    const deps = fakeDeps();
    const federated = {
      ...confirmation('PostConfirmation_ConfirmSignUp', {
        ...attributes,
        'cognito:user_status': 'EXTERNAL_PROVIDER',
        identities: '[{"providerName":"NorthsideAir","userId":"abc123"}]',
      }),
      userName: 'NorthsideAir_abc123',
    };
    await recordIdentityEvent(federated, deps);
    expect(deps.groups.add).toHaveBeenCalledWith('us-west-2_pool', 'NorthsideAir_abc123', 'Authenticated_users');
    expect(deps.users.ensure).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'ada-sub', roles: ['Authenticated_users'], signInMethods: ['NorthsideAir'] }),
    );
  });

  it('records the provider of a federated sign-up even when the event carries no identities', async () => {
    const deps = fakeDeps();
    await recordIdentityEvent(
      {
        ...confirmation('PostConfirmation_ConfirmSignUp', {
          ...attributes,
          'cognito:user_status': 'EXTERNAL_PROVIDER',
        }),
        userName: 'NorthsideAir_abc123',
      },
      deps,
    );
    expect(deps.users.ensure).toHaveBeenCalledWith(expect.objectContaining({ signInMethods: ['NorthsideAir'] }));
  });

  it('adds a provider linked to a password account at the sign-in through it, to the existing record', async () => {
    const deps = fakeDeps();
    deps.users.ensure.mockResolvedValueOnce(false);
    const linked = {
      ...signIn,
      request: {
        ...signIn.request,
        userAttributes: {
          ...attributes,
          'cognito:user_status': 'CONFIRMED',
          identities: '[{"providerName":"NorthsideAir","userId":"abc123","providerType":"OIDC"}]',
        },
      },
    };
    await recordIdentityEvent(linked, deps);
    expect(deps.users.addSignInMethods).toHaveBeenCalledWith('ada-sub', ['password', 'NorthsideAir']);
  });

  it('writes nothing more at a password sign-in, nor at a sign-up or password reset', async () => {
    const deps = fakeDeps();
    await recordIdentityEvent(signIn, deps);
    await recordIdentityEvent(confirmation('PostConfirmation_ConfirmSignUp'), deps);
    await recordIdentityEvent(confirmation('PostConfirmation_ConfirmForgotPassword'), deps);
    expect(deps.users.addSignInMethods).not.toHaveBeenCalled();
    expect(methodsToAdd(signIn)).toEqual([]);
  });

  it('still records the event when adding the methods fails, and reports the failure', async () => {
    const deps = fakeDeps();
    deps.users.addSignInMethods.mockRejectedValueOnce(new Error('throttled'));
    const federated = {
      ...signIn,
      userName: 'NorthsideAir_abc123',
      request: {
        ...signIn.request,
        userAttributes: { ...attributes, identities: '[{"providerName":"NorthsideAir","userId":"abc123"}]' },
      },
    };
    await expect(recordIdentityEvent(federated, deps)).rejects.toBeInstanceOf(AggregateError);
    expect(deps.authEvents.record).toHaveBeenCalled();
  });

  it('knows a federated sign-up by its status or its identities, and only at sign-up', () => {
    const external = { ...attributes, 'cognito:user_status': 'EXTERNAL_PROVIDER' };
    expect(isFederatedSignUp(confirmation('PostConfirmation_ConfirmSignUp', external))).toBe(true);
    expect(
      isFederatedSignUp(confirmation('PostConfirmation_ConfirmSignUp', { ...attributes, identities: '[{}]' })),
    ).toBe(true);
    expect(isFederatedSignUp(confirmation('PostConfirmation_ConfirmForgotPassword', external))).toBe(false);
    expect(isFederatedSignUp({ ...signIn, request: { ...signIn.request, userAttributes: external } })).toBe(false);
    expect(isFederatedSignUp(confirmation('PostConfirmation_ConfirmSignUp'))).toBe(false);
  });

  it('still records the event and the record when joining the group fails, and reports the failure', async () => {
    const deps = fakeDeps();
    deps.groups.add.mockRejectedValueOnce(new Error('throttled'));
    const federated = confirmation('PostConfirmation_ConfirmSignUp', {
      ...attributes,
      'cognito:user_status': 'EXTERNAL_PROVIDER',
    });
    await expect(recordIdentityEvent(federated, deps)).rejects.toBeInstanceOf(AggregateError);
    expect(deps.authEvents.record).toHaveBeenCalled();
    expect(deps.users.ensure).toHaveBeenCalled();
  });

  it('keys both by the sub the tokens carry, whatever the event names the user', async () => {
    const deps = fakeDeps();
    await recordIdentityEvent({ ...signIn, userName: 'ada@example.com' }, deps);
    expect(deps.authEvents.record).toHaveBeenCalledWith(expect.objectContaining({ userId: 'ada-sub' }));
    expect(deps.users.ensure).toHaveBeenCalledWith(expect.objectContaining({ id: 'ada-sub' }));
  });

  it('still ensures the record when recording the event fails, and reports the failure', async () => {
    const deps = fakeDeps();
    deps.authEvents.record.mockRejectedValueOnce(new Error('throttled'));
    await expect(recordIdentityEvent(signIn, deps)).rejects.toBeInstanceOf(AggregateError);
    expect(deps.users.ensure).toHaveBeenCalled();
  });

  it('still records the event of a person without an e-mail, whose record it cannot create', async () => {
    const deps = fakeDeps();
    const { email: _email, ...withoutEmail } = attributes;
    await expect(
      recordIdentityEvent(confirmation('PostConfirmation_ConfirmSignUp', withoutEmail), deps),
    ).rejects.toThrow('Recording the identity event failed');
    expect(deps.authEvents.record).toHaveBeenCalled();
    expect(deps.users.ensure).not.toHaveBeenCalled();
  });

  it('answers Cognito the event even when the tables cannot be reached', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    // No DynamoDB endpoint answers here: both writes fail, the sign-in goes on.
    process.env.AWS_ENDPOINT_URL_DYNAMODB = 'http://127.0.0.1:9';
    process.env.AWS_REGION ??= 'us-west-2';
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    const context = { getRemainingTimeInMillis: () => 3_000 } as unknown as Context;
    await expect(handler(signIn, context)).resolves.toEqual(signIn);
    expect(console.error).toHaveBeenCalled();
    jest.restoreAllMocks();
  });
});
