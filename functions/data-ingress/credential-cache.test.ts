import { cachedVerifier } from './credential-cache';

describe('cachedVerifier', () => {
  it('verifies a token once per ttl, and again after it', async () => {
    let clock = 0;
    const calls: string[] = [];
    const verify = cachedVerifier(
      async (token: string) => {
        calls.push(token);
        return { deviceId: `d-${token}` };
      },
      { ttlMs: 1_000, now: () => clock },
    );
    expect(await verify('a')).toEqual({ deviceId: 'd-a' });
    clock = 999;
    await verify('a');
    expect(calls).toEqual(['a']);
    clock = 1_000;
    await verify('a');
    expect(calls).toEqual(['a', 'a']);
  });

  it('never keeps a refusal: a token that failed is checked again', async () => {
    let answer: { deviceId: string } | undefined;
    let calls = 0;
    const verify = cachedVerifier(async () => {
      calls += 1;
      return answer;
    });
    expect(await verify('t')).toBeUndefined();
    answer = { deviceId: 'd' };
    expect(await verify('t')).toEqual({ deviceId: 'd' });
    expect(calls).toBe(2);
  });

  it('stays bounded: past maxEntries it starts over', async () => {
    let calls = 0;
    const verify = cachedVerifier(
      async (token: string) => {
        calls += 1;
        return token;
      },
      { maxEntries: 2 },
    );
    await verify('a');
    await verify('b');
    await verify('c'); // clears a and b
    await verify('a');
    expect(calls).toBe(4);
  });
});
