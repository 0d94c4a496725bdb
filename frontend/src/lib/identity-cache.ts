import { ApiError } from '../../../shared/contracts/client';
import type { Group, UserRecord } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { apiClient } from './api';

/**
 * The local users-and-groups cache (spec §8, §9): the caller's user record (GET /user-ddb/{id}) and the
 * group list (GET /groups), kept in local storage for 7 days. A stale entry is fetched again. The spec's
 * states are what the reads report:
 * - `localUserCacheStale`, `localGroupsCacheStale`: the copy was older than 7 days and was refetched;
 * - `localGroupsCacheError` ('Error fetching groups'): the groups could not be fetched (a stale copy, if
 *   any, is still returned with this state);
 * - `noUserFound` ('No user found'): the API has no record of that user.
 */

/** Spec §9: 7 days. */
export const IDENTITY_CACHE_TTL_MS = 604_800_000;
export const IDENTITY_CACHE_PREFIX = 'ddp.identity-cache.';
export const GROUPS_CACHE_ERROR = MESSAGES.groupsCacheError;

export type IdentityCacheState =
  | 'localUserCacheStale'
  | 'localGroupsCacheStale'
  | 'localGroupsCacheError'
  | 'noUserFound';

export class IdentityCacheError extends Error {
  override readonly name = 'IdentityCacheError';
  constructor(
    readonly state: Extract<IdentityCacheState, 'noUserFound' | 'localGroupsCacheError'>,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface CacheRead<T> {
  value: T;
  /** Where the value came from this time. */
  source: 'cache' | 'network';
  /** When the value was fetched (ms). */
  cachedAt: number;
  /** Set when the read met one of the spec's states. */
  state?: IdentityCacheState;
}

/** The part of `Storage` the cache uses, so tests hand in a Map-backed fake. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> & {
  keys?: () => string[];
};

export interface IdentityCacheDeps {
  storage: KeyValueStore;
  now: () => number;
  /** The user record, or undefined when the API has none (404). */
  fetchUser: (id: string) => Promise<UserRecord | undefined>;
  fetchGroups: () => Promise<Group[]>;
}

interface Entry<T> {
  value: T;
  cachedAt: number;
}

const userKey = (id: string) => `${IDENTITY_CACHE_PREFIX}user.${id}`;
const GROUPS_KEY = `${IDENTITY_CACHE_PREFIX}groups`;

export const isStale = (cachedAt: number, now: number): boolean => now - cachedAt >= IDENTITY_CACHE_TTL_MS;

export const createIdentityCache = ({ storage, now, fetchUser, fetchGroups }: IdentityCacheDeps) => {
  const read = <T>(key: string): Entry<T> | undefined => {
    try {
      const raw = storage.getItem(key);
      if (!raw) return undefined;
      const entry = JSON.parse(raw) as Entry<T>;
      return typeof entry?.cachedAt === 'number' && 'value' in entry ? entry : undefined;
    } catch {
      return undefined;
    }
  };
  const write = <T>(key: string, value: T): Entry<T> => {
    const entry = { value, cachedAt: now() };
    try {
      storage.setItem(key, JSON.stringify(entry));
    } catch {
      // A full or unavailable storage only costs a refetch next time.
    }
    return entry;
  };

  return {
    /** The caller's user record; `force` skips the cache (e.g. right after an update). */
    user: async (id: string, { force = false } = {}): Promise<CacheRead<UserRecord>> => {
      const cached = read<UserRecord>(userKey(id));
      if (cached && !force && !isStale(cached.cachedAt, now())) {
        return { value: cached.value, source: 'cache', cachedAt: cached.cachedAt };
      }
      const fetched = await fetchUser(id);
      if (!fetched) {
        storage.removeItem(userKey(id));
        throw new IdentityCacheError('noUserFound', MESSAGES.noUserFound);
      }
      const entry = write(userKey(id), { ...fetched, localCacheTime: now() });
      return {
        value: entry.value,
        source: 'network',
        cachedAt: entry.cachedAt,
        ...(cached && isStale(cached.cachedAt, now()) ? { state: 'localUserCacheStale' as const } : {}),
      };
    },

    /** Every group with its precedence. */
    groups: async ({ force = false } = {}): Promise<CacheRead<Group[]>> => {
      const cached = read<Group[]>(GROUPS_KEY);
      const stale = cached ? isStale(cached.cachedAt, now()) : false;
      if (cached && !force && !stale) return { value: cached.value, source: 'cache', cachedAt: cached.cachedAt };
      let fetched: Group[];
      try {
        fetched = await fetchGroups();
      } catch (error) {
        if (cached) {
          return { value: cached.value, source: 'cache', cachedAt: cached.cachedAt, state: 'localGroupsCacheError' };
        }
        throw new IdentityCacheError('localGroupsCacheError', GROUPS_CACHE_ERROR, { cause: error });
      }
      const entry = write(GROUPS_KEY, fetched);
      return {
        value: entry.value,
        source: 'network',
        cachedAt: entry.cachedAt,
        ...(stale ? { state: 'localGroupsCacheStale' as const } : {}),
      };
    },

    /** Forgets one user's record (after a change) or, without an id, everything. */
    invalidate: (id?: string) => {
      if (id) storage.removeItem(userKey(id));
      else clearIdentityCache(storage);
    },
  };
};
export type IdentityCache = ReturnType<typeof createIdentityCache>;

const keysOf = (storage: KeyValueStore): string[] => {
  if (storage.keys) return storage.keys();
  const s = storage as Storage;
  return typeof s.length === 'number' ? Array.from({ length: s.length }, (_, i) => s.key(i) ?? '') : [];
};

/** Removes every cached user and the groups: on sign-out, so the next person on this browser sees none. */
export const clearIdentityCache = (storage: KeyValueStore): void => {
  for (const key of keysOf(storage)) if (key.startsWith(IDENTITY_CACHE_PREFIX)) storage.removeItem(key);
};

let browserCache: IdentityCache | undefined;

/** The app's cache: local storage, the real clock and the users API. */
export const identityCache = (): IdentityCache => {
  browserCache ??= createIdentityCache({
    storage: localStorage,
    now: Date.now,
    fetchUser: async (id) => {
      try {
        return await apiClient('users').getUserRecord({ params: { id } });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }
    },
    fetchGroups: async () => (await apiClient('users').listGroups({})).items,
  });
  return browserCache;
};
