import type { Window } from '../../../shared/campaigns/window';

export interface AccessDecision {
  allowed: boolean;
  /** What granted it: `staff`, a relation type, or `campaign-user:{campaignId}` (the first granting campaign). */
  via?: string;
  /** Campaign path only: every campaign that grants the access, sorted. */
  campaignIds?: string[];
  /**
   * Campaign path only: the data the access reaches, as the sorted union of those campaigns' windows (an empty
   * array reaches no data). Absent: unlimited (staff, a direct relation, organizations, campaigns).
   */
  windows?: Window[];
}

interface Entry {
  version: number;
  expires: number;
  decision: AccessDecision;
}

export interface AccessCacheOptions {
  /** @default 10_000 decisions per Lambda instance */
  maxEntries?: number;
  /**
   * A ceiling on how long a decision lives even when no version change was seen (e.g. a bump that failed
   * after its relation was written). @default 300_000 ms
   */
  ttlMs?: number;
  now?: () => number;
}

/**
 * Access decisions per user and options, valid only for the user's access version they were computed at.
 * Least recently used entries leave first.
 */
export const createAccessCache = ({
  maxEntries = 10_000,
  ttlMs = 300_000,
  now = Date.now,
}: AccessCacheOptions = {}) => {
  const entries = new Map<string, Entry>();
  return {
    get: (key: string, version: number): AccessDecision | undefined => {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.version !== version || entry.expires <= now()) return undefined;
      entries.set(key, entry);
      return entry.decision;
    },
    /** Whether a decision is kept under the key, at any version (it may still be stale). */
    holds: (key: string): boolean => (entries.get(key)?.expires ?? 0) > now(),
    set: (key: string, version: number, decision: AccessDecision): void => {
      entries.delete(key);
      entries.set(key, { version, expires: now() + ttlMs, decision });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
};

export type AccessCache = ReturnType<typeof createAccessCache>;
