import { jest } from '@jest/globals';
import { loadRuntimeConfig } from './runtime-config';

const config = (env: string) => ({
  env,
  region: 'eu-west-1',
  apiBaseUrls: { system: 'http://localhost:3000/system' },
  auth: { userPoolId: 'pool', userPoolClientId: 'client', authFlowType: 'USER_PASSWORD_AUTH' },
  cookies: { secure: false, sameSite: 'lax' },
});
const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

describe("the runtime configuration at boot, with the early reads' answer (decision 113)", () => {
  it("takes the early reads' answer and asks nothing itself", async () => {
    const fetchFn = jest.fn(async () => answer(config('asked')));
    const loaded = await loadRuntimeConfig(
      fetchFn as unknown as typeof fetch,
      Promise.resolve(answer(config('early'))),
    );
    expect(loaded.env).toBe('early');
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('asks itself when the early reads got no answer (their request failed) or never ran', async () => {
    const fetchFn = jest.fn(async () => answer(config('asked')));
    expect((await loadRuntimeConfig(fetchFn as unknown as typeof fetch, Promise.resolve(undefined))).env).toBe('asked');
    expect((await loadRuntimeConfig(fetchFn as unknown as typeof fetch)).env).toBe('asked');
    expect(fetchFn).toHaveBeenCalledTimes(2);
  });
});
