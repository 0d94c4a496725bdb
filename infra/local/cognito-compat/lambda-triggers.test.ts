import { jest } from '@jest/globals';
import type { Context } from 'cognito-local/lib/services/context';
import { type CognitoLocalTriggerEvent, cognitoTriggerEvent, createInProcessLambda } from './lambda-triggers';

const ctx = { logger: { debug: () => undefined } } as unknown as Context;
const fromCognitoLocal: CognitoLocalTriggerEvent = {
  triggerSource: 'PostConfirmation_ConfirmSignUp',
  clientId: null,
  userAttributes: { sub: 'ada-sub', email: 'ada@example.com', 'cognito:user_status': 'CONFIRMED' },
  username: 'ada-sub',
  userPoolId: 'local_pool',
};

describe('Cognito triggers served in-process', () => {
  it('builds the event Cognito sends, naming no client for an admin confirmation', () => {
    expect(cognitoTriggerEvent(fromCognitoLocal, 'us-west-2')).toEqual({
      version: '1',
      region: 'us-west-2',
      userPoolId: 'local_pool',
      triggerSource: 'PostConfirmation_ConfirmSignUp',
      userName: 'ada-sub',
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'CLIENT_ID_NOT_APPLICABLE' },
      request: { userAttributes: fromCognitoLocal.userAttributes },
      response: {},
    });
    expect(
      cognitoTriggerEvent(
        { ...fromCognitoLocal, triggerSource: 'PostAuthentication_Authentication', clientId: 'web' },
        'us-west-2',
      ),
    ).toMatchObject({ callerContext: { clientId: 'web' }, request: { newDeviceUsed: false } });
  });

  it('is enabled for the triggers of COGNITO_TRIGGERS only', () => {
    const lambda = createInProcessLambda({ region: 'us-west-2', load: async () => ({ handler: async (e) => e }) });
    expect(lambda.enabled('PostConfirmation')).toBe(true);
    expect(lambda.enabled('PostAuthentication')).toBe(true);
    expect(lambda.enabled('PreSignUp')).toBe(false);
  });

  it('imports the entry at first use, calls its handler with the event and a context, and answers its response', async () => {
    const handler = jest.fn(async (event: { response: object }, _context: { functionName: string }) => ({
      ...event,
      response: { seen: true },
    }));
    const load = jest.fn(async (_entry: string) => ({ handler }));
    const lambda = createInProcessLambda({ region: 'us-west-2', load: load as never });
    expect(load).not.toHaveBeenCalled();
    await expect(lambda.invoke(ctx, 'PostConfirmation', fromCognitoLocal)).resolves.toEqual({ seen: true });
    await lambda.invoke(ctx, 'PostConfirmation', fromCognitoLocal);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledWith('functions/users/identity-events.ts');
    expect(handler.mock.calls[0]?.[0]).toMatchObject({ triggerSource: 'PostConfirmation_ConfirmSignUp' });
    expect(handler.mock.calls[0]?.[1]).toMatchObject({ functionName: 'UsersIdentityEvents' });
  });

  it('tries the import again after a failed one (the environment may not have been set yet)', async () => {
    const load = jest
      .fn<(entry: string) => Promise<{ handler: (e: unknown) => Promise<unknown> }>>()
      .mockRejectedValueOnce(new Error('Missing environment variables: USERS_TABLE'))
      .mockResolvedValue({ handler: async (e) => e });
    const lambda = createInProcessLambda({ region: 'us-west-2', load: load as never });
    await expect(lambda.invoke(ctx, 'PostConfirmation', fromCognitoLocal)).rejects.toThrow('USERS_TABLE');
    await expect(lambda.invoke(ctx, 'PostConfirmation', fromCognitoLocal)).resolves.toEqual({});
  });
});
