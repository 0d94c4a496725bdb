import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { iotAuthorizer } from './iot-authorizer';

describe('the IoT authorizer chain', () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const event = { connectionMetadata: { id: 'conn-1' }, ok: true };

  it("answers the work's decision, building the dependencies once", async () => {
    let built = 0;
    const handler = iotAuthorizer(
      {
        name: 'test',
        deps: () => {
          built += 1;
          return { principalId: 'p1' };
        },
      },
      async (e: typeof event, deps) => ({ isAuthenticated: e.ok, principalId: deps.principalId }),
    );
    expect(await handler(event, {} as Context)).toEqual({ isAuthenticated: true, principalId: 'p1' });
    await handler(event, {} as Context);
    expect(built).toBe(1);
  });

  it('answers "not authenticated" when the work fails, never an unhandled error', async () => {
    const failing = iotAuthorizer({ name: 'failing', deps: () => ({}) }, async () =>
      Promise.reject(new Error('table down')),
    );
    expect(await failing(event, {} as Context)).toEqual({ isAuthenticated: false });
    const failingDeps = iotAuthorizer(
      {
        name: 'no-env',
        deps: () => {
          throw new Error('Missing environment variables: IOT_ARN_PREFIX');
        },
      },
      async () => ({ isAuthenticated: true }),
    );
    expect(await failingDeps(event, {} as Context)).toEqual({ isAuthenticated: false });
  });
});
