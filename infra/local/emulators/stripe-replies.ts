/**
 * POST answers kept by idempotency key, so a retried create is answered again instead of done twice (as Stripe does).
 * Stripe forgets a key after 24 hours; so does this, and it keeps at most `maxEntries` (oldest out first), so a local
 * stack that runs for weeks does not keep every answer it ever gave (issue 19).
 */
export const createReplies = <T>({
  maxEntries = 10_000,
  ttlMs = 24 * 3_600_000,
  now = Date.now,
}: {
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
} = {}) => {
  const entries = new Map<string, { expires: number; reply: T }>();
  return {
    get: (key: string): T | undefined => {
      const entry = entries.get(key);
      if (entry && entry.expires > now()) return entry.reply;
      entries.delete(key);
      return undefined;
    },
    set: (key: string, reply: T): void => {
      entries.delete(key);
      entries.set(key, { expires: now() + ttlMs, reply });
      // Insertion order is expiry order: the first entries are the oldest.
      for (const [first, entry] of entries) {
        if (entries.size <= maxEntries && entry.expires > now()) break;
        entries.delete(first);
      }
    },
    get size() {
      return entries.size;
    },
  };
};
