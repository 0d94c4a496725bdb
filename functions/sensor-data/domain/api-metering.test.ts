import {
  monthOf,
  newlyCrossed,
  rateLimitHeaders,
  resetOf,
  retryAfterSeconds,
  thresholdCount,
  usageExpiry,
} from './api-metering';

const at = (iso: string) => Date.parse(iso);

describe('API metering arithmetic', () => {
  it('counts in the UTC calendar month and resets on the first of the next, across a year end', () => {
    expect(monthOf(at('2025-03-31T23:59:59.999Z'))).toBe('2025-03');
    expect(monthOf(at('2025-04-01T00:00:00.000Z'))).toBe('2025-04');
    expect(resetOf(at('2025-03-15T12:00:00Z'))).toBe(at('2025-04-01T00:00:00Z'));
    expect(resetOf(at('2025-12-31T23:00:00Z'))).toBe(at('2026-01-01T00:00:00Z'));
    expect(resetOf(at('2024-02-29T10:00:00Z'))).toBe(at('2024-03-01T00:00:00Z'));
  });

  it('crosses a threshold at the first request that reaches its percentage', () => {
    expect(thresholdCount(3_000, 70)).toBe(2_100);
    expect(thresholdCount(3_000, 90)).toBe(2_700);
    expect(thresholdCount(3_000, 100)).toBe(3_000);
    // Rounded up: 70 % of 10 requests is request 7, of 11 it is request 8 (7.7).
    expect(thresholdCount(11, 70)).toBe(8);
    expect(newlyCrossed(2_099, 3_000, [])).toEqual([]);
    expect(newlyCrossed(2_100, 3_000, [])).toEqual([70]);
    expect(newlyCrossed(2_700, 3_000, [70])).toEqual([90]);
    expect(newlyCrossed(3_000, 3_000, [70, 90])).toEqual([100]);
    expect(newlyCrossed(3_000, 3_000, [70, 90, 100])).toEqual([]);
  });

  it('records every threshold a jump passes (a count first seen high), and none without a quota', () => {
    expect(newlyCrossed(2_950, 3_000, [])).toEqual([70, 90]);
    expect(newlyCrossed(3_000, 3_000, [90])).toEqual([70, 100]);
    expect(newlyCrossed(5, 0, [])).toEqual([]);
  });

  it('answers the limit, what remains (never below 0) and the reset in epoch seconds', () => {
    const now = at('2025-06-10T08:00:00Z');
    expect(rateLimitHeaders(2_100, 3_000, now)).toEqual({
      'x-ratelimit-limit': '3000',
      'x-ratelimit-remaining': '900',
      'x-ratelimit-reset': String(at('2025-07-01T00:00:00Z') / 1000),
    });
    expect(rateLimitHeaders(3_001, 3_000, now)['x-ratelimit-remaining']).toBe('0');
  });

  it('tells a refused client to retry at the reset, and keeps usage a year past its month', () => {
    expect(retryAfterSeconds(at('2025-06-30T23:59:59.500Z'))).toBe(1);
    expect(retryAfterSeconds(at('2025-06-30T23:00:00Z'))).toBe(3_600);
    expect(usageExpiry(at('2025-06-10T08:00:00Z'))).toBe(at('2026-07-01T00:00:00Z') / 1000);
  });
});
