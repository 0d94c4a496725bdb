import { createAccessCache } from './access-cache';

const yes = { allowed: true, via: 'device-user' };
const no = { allowed: false };

describe('the access cache', () => {
  it('answers a decision for the version it was stored at, and misses on any other version', () => {
    const cache = createAccessCache();
    cache.set('u1|device|d1', 3, yes);
    expect(cache.get('u1|device|d1', 3)).toEqual(yes);
    expect(cache.get('u1|device|d1', 4)).toBeUndefined();
    // A mismatch drops the stale entry: even the old version no longer finds it.
    expect(cache.get('u1|device|d1', 3)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps decisions of different keys apart', () => {
    const cache = createAccessCache();
    cache.set('u1|device|d1', 1, yes);
    cache.set('u2|device|d1', 1, no);
    expect(cache.get('u1|device|d1', 1)).toEqual(yes);
    expect(cache.get('u2|device|d1', 1)).toEqual(no);
    expect(cache.get('u1|device|d2', 1)).toBeUndefined();
  });

  it('expires a decision after ttlMs, even when the version never changed', () => {
    let clock = 1_000;
    const cache = createAccessCache({ ttlMs: 100, now: () => clock });
    cache.set('k', 1, yes);
    clock = 1_099;
    expect(cache.get('k', 1)).toEqual(yes);
    clock = 1_100;
    expect(cache.get('k', 1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('restarts the time to live when a key is stored again', () => {
    let clock = 0;
    const cache = createAccessCache({ ttlMs: 100, now: () => clock });
    cache.set('k', 1, no);
    clock = 90;
    cache.set('k', 2, yes);
    clock = 150;
    expect(cache.get('k', 2)).toEqual(yes);
  });

  it('evicts the least recently stored entry beyond maxEntries', () => {
    const cache = createAccessCache({ maxEntries: 2 });
    cache.set('a', 1, yes);
    cache.set('b', 1, yes);
    cache.set('c', 1, yes);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toEqual(yes);
    expect(cache.get('c', 1)).toEqual(yes);
  });

  it('counts a read as a use: the entry read last survives the next eviction', () => {
    const cache = createAccessCache({ maxEntries: 2 });
    cache.set('a', 1, yes);
    cache.set('b', 1, yes);
    expect(cache.get('a', 1)).toEqual(yes);
    cache.set('c', 1, yes);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toEqual(yes);
    expect(cache.get('c', 1)).toEqual(yes);
  });

  it('does not grow when a key is overwritten', () => {
    const cache = createAccessCache({ maxEntries: 2 });
    cache.set('a', 1, yes);
    cache.set('b', 1, yes);
    cache.set('a', 2, no);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 2)).toEqual(no);
    expect(cache.get('b', 1)).toEqual(yes);
  });
});
