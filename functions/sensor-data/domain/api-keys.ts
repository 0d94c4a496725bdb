import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { API_MESSAGES, type ApiKey, type NewApiKey } from '../../../shared/contracts/sensor-data-api-keys';
import { hashSecret, secretMatches } from '../../_shared/devices/credential-token';
import { Conflict, NotFound } from '../../_shared/errors';
import type { ApiKeyPrincipal } from '../../_shared/http/http-area';
import { apiKeyOf, parseApiKey } from './api-key-token';
import type { ApiKeyStore, StoredApiKey } from './ports';

/** Enough for a few scripts and a rotation; a key is cheap to revoke and make again. */
export const MAX_API_KEYS_PER_USER = 10;

/** lastUsed is written at most once a minute per key: enough to show "last used", one write per minute at most. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeysDeps {
  store: Pick<ApiKeyStore, 'put' | 'get' | 'listByOwner' | 'remove' | 'touch'>;
  now: () => number;
  newKeyId: () => string;
  newSecret: () => string;
}

const listed = (key: StoredApiKey): ApiKey => ({
  keyId: key.keyId,
  name: key.name,
  created: key.created,
  ...(typeof key.lastUsed === 'number' ? { lastUsed: key.lastUsed } : {}),
});

/** A person's public API keys: the secret answered once and kept as a SHA-256 hash. */
export const createApiKeys = ({ store, now, newKeyId, newSecret }: ApiKeysDeps) => ({
  create: async (caller: Caller, name: string): Promise<NewApiKey> => {
    // Two concurrent creations may both pass this count and end at the limit plus one: harmless, the limit is
    // a guard against scripts making keys in a loop, not a security bound.
    const held = await store.listByOwner(caller.sub);
    if (held.length >= MAX_API_KEYS_PER_USER) throw new Conflict(API_MESSAGES.apiKeyLimit(MAX_API_KEYS_PER_USER));
    const keyId = newKeyId();
    const secret = newSecret();
    const key: StoredApiKey = {
      keyId,
      ownerId: caller.sub,
      ownerUsername: caller.username,
      ...(caller.email ? { ownerEmail: caller.email } : {}),
      name,
      created: now(),
      secretHash: hashSecret(secret),
    };
    await store.put(key);
    return { ...listed(key), key: apiKeyOf(keyId, secret) };
  },

  list: async (caller: Caller): Promise<{ items: ApiKey[] }> => ({
    items: (await store.listByOwner(caller.sub)).map(listed),
  }),

  /** The owner's own keys; staff may revoke anyone's (a leaked key reported to support). */
  revoke: async (caller: Caller, keyId: string): Promise<void> => {
    const key = await store.get(keyId);
    if (!key || (key.ownerId !== caller.sub && !isStaff(caller.groups))) {
      // Another's key answers as a missing one: key ids are not to be probed.
      throw new NotFound(API_MESSAGES.apiKeyNotFound(keyId));
    }
    await store.remove(keyId);
  },

  /**
   * The key and the caller it acts as: its owner with no groups, so a key reaches devices through the owner's
   * relations (and public data) only, never through staff powers. issuedAt and authTime are now: the session
   * guard still refuses a disabled owner, but a global sign-out ends sessions, not keys (revoke a key to end it).
   */
  authenticate: async (raw: string): Promise<{ apiKey: ApiKeyPrincipal; caller: Caller } | undefined> => {
    const parsed = parseApiKey(raw);
    if (!parsed) return undefined;
    const key = await store.get(parsed.keyId);
    if (!key || !secretMatches(parsed.secret, key.secretHash)) return undefined;
    const at = now();
    if (key.lastUsed === undefined || key.lastUsed < at - LAST_USED_RESOLUTION_MS) {
      await store.touch(key.keyId, at, LAST_USED_RESOLUTION_MS);
    }
    // Rounded up: the session guard swaps in the stored groups for a token issued before they last changed, and
    // a key must never pick up staff groups that way.
    const seconds = Math.ceil(at / 1000);
    return {
      apiKey: { keyId: key.keyId, ownerId: key.ownerId },
      caller: {
        sub: key.ownerId,
        username: key.ownerUsername,
        ...(key.ownerEmail ? { email: key.ownerEmail } : {}),
        groups: [],
        tokenUse: 'access',
        issuedAt: seconds,
        authTime: seconds,
      },
    };
  },
});

export type ApiKeys = ReturnType<typeof createApiKeys>;
