import { EARLY_READ_TTL_MS, offerRead, offerRuntimeConfig, takeRead, takeRuntimeConfig } from './early-reads';

const URL_A = 'http://localhost:3000/devices/devices/d-1';
const auth = (token: string) => ({ headers: { accept: 'application/json', authorization: `Bearer ${token}` } });

describe('taking what the early reads asked for (decision 113)', () => {
  it('hands a read over once, to a GET of the same URL with the same token', async () => {
    const response = Promise.resolve(new Response('{"id":"d-1"}'));
    offerRead(URL_A, 'Bearer t1', response, 1_000);
    const taken = takeRead(URL_A, { method: 'GET', ...auth('t1') }, 1_500);
    expect(await (await taken!).json()).toEqual({ id: 'd-1' });
    expect(takeRead(URL_A, auth('t1'), 1_600)).toBeUndefined();
  });

  it('does not hand it to another token, another method or URL, or after its time, and drops it then', () => {
    const response = Promise.resolve(new Response('{}'));
    for (const [init, now] of [
      [auth('t2'), 1_100],
      [{ method: 'POST', ...auth('t1') }, 1_100],
      [auth('t1'), 1_000 + EARLY_READ_TTL_MS + 1],
      [{}, 1_100],
    ] as const) {
      offerRead(URL_A, 'Bearer t1', response, 1_000);
      expect(takeRead(URL_A, init, now)).toBeUndefined();
      expect(takeRead(URL_A, auth('t1'), 1_100)).toBeUndefined();
    }
    offerRead(URL_A, 'Bearer t1', response, 1_000);
    expect(takeRead(`${URL_A}?x=1`, auth('t1'), 1_100)).toBeUndefined();
    expect(takeRead(URL_A, auth('t1'), 1_100)).toBe(response);
  });

  it('hands a failed read over as it failed (the app asks again), with no unhandled rejection meanwhile', async () => {
    const failed = Promise.reject(new TypeError('Failed to fetch'));
    offerRead(URL_A, 'Bearer t1', failed, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(takeRead(URL_A, auth('t1'), 1_100)).rejects.toThrow('Failed to fetch');
  });

  it("hands the runtime configuration's response over once", async () => {
    expect(takeRuntimeConfig()).toBeUndefined();
    offerRuntimeConfig(Promise.resolve(new Response('{"region":"eu-west-1"}')));
    expect(await (await takeRuntimeConfig())!.json()).toEqual({ region: 'eu-west-1' });
    expect(takeRuntimeConfig()).toBeUndefined();
  });
});
