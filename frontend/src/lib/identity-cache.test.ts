import type { Group, UserRecord } from '../../../shared/contracts/users';
import {
  clearIdentityCache,
  createIdentityCache,
  IDENTITY_CACHE_TTL_MS,
  IdentityCacheError,
  type KeyValueStore,
} from './identity-cache';

const memoryStorage = (): KeyValueStore & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    keys: () => [...map.keys()],
  };
};

const record = (id: string, displayName = id): UserRecord => ({
  id,
  displayName,
  cartItems: [],
  rolesList: [],
  created: 1,
  updated: 1,
});

const GROUPS: Group[] = [{ GroupName: 'Administrators', Precedence: 1 }];

const setup = () => {
  const storage = memoryStorage();
  const clock = { now: Date.UTC(2030, 0, 1) };
  const calls = { user: 0, groups: 0 };
  const server = {
    users: new Map<string, UserRecord>([['u1', record('u1')]]),
    groupsFail: false,
  };
  const cache = createIdentityCache({
    storage,
    now: () => clock.now,
    fetchUser: async (id) => {
      calls.user += 1;
      return server.users.get(id);
    },
    fetchGroups: async () => {
      calls.groups += 1;
      if (server.groupsFail) throw new Error('HTTP 503');
      return GROUPS;
    },
  });
  return { storage, clock, calls, server, cache };
};

describe('identity cache: the user record', () => {
  it('fetches once, then serves the copy for 7 days (604800000 ms) with the time it was cached', async () => {
    const { cache, calls, clock } = setup();
    const first = await cache.user('u1');
    expect(first).toMatchObject({ source: 'network', value: { id: 'u1', localCacheTime: clock.now } });
    expect(first.state).toBeUndefined();

    clock.now += IDENTITY_CACHE_TTL_MS - 1;
    expect(await cache.user('u1')).toMatchObject({ source: 'cache', value: { id: 'u1' } });
    expect(calls.user).toBe(1);
  });

  it('refetches a stale copy and says localUserCacheStale', async () => {
    const { cache, calls, clock, server } = setup();
    await cache.user('u1');
    server.users.set('u1', record('u1', 'Renamed'));
    clock.now += IDENTITY_CACHE_TTL_MS;
    const read = await cache.user('u1');
    expect(read).toMatchObject({ source: 'network', state: 'localUserCacheStale', value: { displayName: 'Renamed' } });
    expect(calls.user).toBe(2);
    expect(await cache.user('u1')).toMatchObject({ source: 'cache', value: { displayName: 'Renamed' } });
  });

  it('answers noUserFound ("No user found") when the API has no record, and forgets the copy', async () => {
    const { cache, server, storage } = setup();
    await cache.user('u1');
    server.users.delete('u1');
    const error = await cache.user('u1', { force: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityCacheError);
    expect(error).toMatchObject({ state: 'noUserFound', message: 'No user found' });
    expect(storage.map.size).toBe(0);
  });

  it('refetches on force and after invalidate', async () => {
    const { cache, calls } = setup();
    await cache.user('u1');
    await cache.user('u1', { force: true });
    cache.invalidate('u1');
    await cache.user('u1');
    expect(calls.user).toBe(3);
  });

  it('ignores a corrupt entry', async () => {
    const { cache, storage, calls } = setup();
    storage.setItem('ddp.identity-cache.user.u1', '{not json');
    expect(await cache.user('u1')).toMatchObject({ source: 'network' });
    expect(calls.user).toBe(1);
  });
});

describe('identity cache: the groups', () => {
  it('serves the list from the cache for 7 days, then refetches and says localGroupsCacheStale', async () => {
    const { cache, calls, clock } = setup();
    expect(await cache.groups()).toMatchObject({ source: 'network', value: GROUPS });
    expect(await cache.groups()).toMatchObject({ source: 'cache' });
    clock.now += IDENTITY_CACHE_TTL_MS;
    expect(await cache.groups()).toMatchObject({ source: 'network', state: 'localGroupsCacheStale' });
    expect(calls.groups).toBe(2);
  });

  it('answers localGroupsCacheError ("Error fetching groups") when the list cannot be fetched', async () => {
    const { cache, server } = setup();
    server.groupsFail = true;
    await expect(cache.groups()).rejects.toMatchObject({
      state: 'localGroupsCacheError',
      message: 'Error fetching groups',
    });
  });

  it('keeps serving a stale list, marked with the error, while fetching fails', async () => {
    const { cache, server, clock } = setup();
    await cache.groups();
    server.groupsFail = true;
    clock.now += IDENTITY_CACHE_TTL_MS + 1;
    expect(await cache.groups()).toMatchObject({ source: 'cache', value: GROUPS, state: 'localGroupsCacheError' });
  });
});

describe('clearIdentityCache', () => {
  it('removes the cache entries and nothing else', async () => {
    const { cache, storage } = setup();
    await cache.user('u1');
    await cache.groups();
    storage.setItem('ddp.logout-at', '1');
    clearIdentityCache(storage);
    expect([...storage.map.keys()]).toEqual(['ddp.logout-at']);
  });
});
