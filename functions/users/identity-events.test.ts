import { jest } from '@jest/globals';
import type { Context, PostAuthenticationTriggerEvent, PostConfirmationTriggerEvent } from 'aws-lambda';
import type { IdentityEventDeps } from './identity-events';

// The module reads its environment at import, as a Lambda does at cold start.
process.env.AUTH_EVENTS_TABLE ??= 'users-test-auth-events';
process.env.USERS_TABLE ??= 'users-test-users';
const { authEventOf, handler, recordIdentityEvent } = await import('./identity-events');

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
    users: { ensure: jest.fn<IdentityEventDeps['users']['ensure']>(async () => true) },
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
      now: 1_767_225_600_000,
    });
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
