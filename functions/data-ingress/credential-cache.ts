/**
 * Remembers verified device credentials for a short time inside one Lambda instance, so a device sending
 * batch after batch costs one credential read per minute instead of one per request. Only successes are
 * kept (a refused token is read again next time), and a revoked credential keeps working here for at most
 * `ttlMs` (docs/sensor-data.md); a retired device is refused at once by the ingest's device-record condition.
 */
export const cachedVerifier = <T>(
  verify: (token: string) => Promise<T | undefined>,
  {
    ttlMs = 60_000,
    maxEntries = 10_000,
    now = Date.now,
  }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
) => {
  const cache = new Map<string, { value: T; until: number }>();
  return async (token: string): Promise<T | undefined> => {
    const at = now();
    const hit = cache.get(token);
    if (hit && hit.until > at) return hit.value;
    cache.delete(token);
    const value = await verify(token);
    if (value !== undefined) {
      // Crude but bounded: an instance serving more devices than this just reads more often.
      if (cache.size >= maxEntries) cache.clear();
      cache.set(token, { value, until: at + ttlMs });
    }
    return value;
  };
};
