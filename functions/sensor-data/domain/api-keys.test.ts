import type { Caller } from '../../../shared/auth/verify-token';
import { apiKeyOf, parseApiKey } from './api-key-token';
import { createApiKeys, LAST_USED_RESOLUTION_MS, MAX_API_KEYS_PER_USER } from './api-keys';
import type { StoredApiKey } from './ports';

const caller = (sub: string, groups: string[] = []): Caller => ({
  sub,
  username: `${sub}-name`,
  email: `${sub}@example.test`,
  groups,
  tokenUse: 'access',
  issuedAt: 0,
  authTime: 0,
});

const setUp = () => {
  const rows = new Map<string, StoredApiKey>();
  const touches: number[] = [];
  let clock = Date.parse('2025-06-10T08:00:00.250Z');
  let next = 0;
  const keys = createApiKeys({
    store: {
      put: async (key) => {
        rows.set(key.keyId, { ...key });
      },
      get: async (keyId) => (rows.has(keyId) ? { ...rows.get(keyId)! } : undefined),
      listByOwner: async (ownerId) => [...rows.values()].filter((key) => key.ownerId === ownerId),
      remove: async (keyId) => {
        const key = rows.get(keyId);
        rows.delete(keyId);
        return key;
      },
      touch: async (keyId, at) => {
        touches.push(at);
        const key = rows.get(keyId);
        if (key) key.lastUsed = at;
      },
    },
    now: () => clock,
    newKeyId: () => {
      next += 1;
      return `key${String(next).padStart(6, '0')}`;
    },
    newSecret: () => `secret-${next}-${'x'.repeat(40)}`,
  });
  return {
    keys,
    rows,
    touches,
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
  };
};

describe('API keys', () => {
  it('answers the key once and stores only a hash of its secret', async () => {
    const { keys, rows } = setUp();
    const made = await keys.create(caller('ann'), 'My script');
    expect(made.key).toBe(apiKeyOf(made.keyId, parseApiKey(made.key)!.secret));
    expect(made.key.startsWith('ak_')).toBe(true);
    const stored = rows.get(made.keyId)!;
    expect(JSON.stringify(stored)).not.toContain(parseApiKey(made.key)!.secret);
    expect(stored.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await keys.list(caller('ann'))).toEqual({
      items: [{ keyId: made.keyId, name: 'My script', created: made.created }],
    });
    expect(await keys.list(caller('bob'))).toEqual({ items: [] });
  });

  it('verifies a key as its owner without groups, and refuses a wrong secret, a malformed or a revoked key', async () => {
    const { keys, now } = setUp();
    const made = await keys.create(caller('ann', ['Administrators']), 'k');
    const found = await keys.authenticate(made.key);
    expect(found).toEqual({
      apiKey: { keyId: made.keyId, ownerId: 'ann' },
      caller: expect.objectContaining({ sub: 'ann', username: 'ann-name', groups: [], tokenUse: 'access' }),
    });
    // Never before now: the session guard must not treat it as issued before a group change.
    expect(found!.caller.issuedAt * 1000).toBeGreaterThanOrEqual(now());
    const { secret } = parseApiKey(made.key)!;
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await keys.authenticate(apiKeyOf(made.keyId, wrong))).toBeUndefined();
    expect(await keys.authenticate(apiKeyOf('unknown0', secret))).toBeUndefined();
    expect(await keys.authenticate(`Bearer ${made.key}`)).toBeUndefined();
    expect(await keys.authenticate('dc_abc.def')).toBeUndefined();
    await keys.revoke(caller('ann'), made.keyId);
    expect(await keys.authenticate(made.key)).toBeUndefined();
  });

  it('records lastUsed at most once a minute', async () => {
    const { keys, touches, advance } = setUp();
    const made = await keys.create(caller('ann'), 'k');
    await keys.authenticate(made.key);
    advance(10_000);
    await keys.authenticate(made.key);
    expect(touches).toHaveLength(1);
    advance(LAST_USED_RESOLUTION_MS);
    await keys.authenticate(made.key);
    expect(touches).toHaveLength(2);
    expect((await keys.list(caller('ann'))).items[0]!.lastUsed).toBe(touches[1]);
  });

  it('revokes only the owner’s key (another’s answers as missing) unless staff, and caps the keys held', async () => {
    const { keys } = setUp();
    const made = await keys.create(caller('ann'), 'k');
    await expect(keys.revoke(caller('bob'), made.keyId)).rejects.toMatchObject({ status: 404 });
    await keys.revoke(caller('eve', ['Employees']), made.keyId);
    await expect(keys.revoke(caller('ann'), made.keyId)).rejects.toMatchObject({ status: 404 });
    for (let i = 0; i < MAX_API_KEYS_PER_USER; i += 1) await keys.create(caller('cat'), `k${i}`);
    await expect(keys.create(caller('cat'), 'one too many')).rejects.toMatchObject({ status: 409 });
  });
});
