import { QUOTA_THRESHOLDS, type QuotaThreshold } from '../../../shared/contracts/sensor-data-api-keys';

/**
 * The metering arithmetic of the public API, apart from the table: the month a request counts in, when the count
 * resets, which thresholds a count has crossed and the rate-limit headers. Everything is UTC calendar months.
 */

/** `YYYY-MM` of the UTC month `now` falls in. */
export const monthOf = (now: number): string => new Date(now).toISOString().slice(0, 7);

/** The first of the next UTC month, 00:00, in ms: when this month's count no longer applies. */
export const resetOf = (now: number): number => {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
};

/** The count at which a threshold is crossed: the first request that reaches the percentage. */
export const thresholdCount = (limit: number, threshold: QuotaThreshold): number =>
  Math.ceil((limit * threshold) / 100);

/** Thresholds `used` has reached that are not yet recorded, lowest first. */
export const newlyCrossed = (used: number, limit: number, recorded: Iterable<number>): QuotaThreshold[] => {
  if (limit <= 0) return [];
  const done = new Set(recorded);
  return QUOTA_THRESHOLDS.filter((t) => !done.has(t) && used >= thresholdCount(limit, t));
};

/** The headers every metered answer carries (as GitHub's API names them), refused or not. */
export const rateLimitHeaders = (used: number, limit: number, now: number): Record<string, string> => ({
  'x-ratelimit-limit': String(limit),
  'x-ratelimit-remaining': String(Math.max(0, limit - used)),
  'x-ratelimit-reset': String(Math.floor(resetOf(now) / 1000)),
});

/** A refusal adds when to try again, in whole seconds (at least 1). */
export const retryAfterSeconds = (now: number): number => Math.max(1, Math.ceil((resetOf(now) - now) / 1000));

/** Usage items outlive their month by a year, so a year of history can be shown; then TTL removes them. */
export const usageExpiry = (now: number): number => {
  const date = new Date(now);
  return Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 13, 1) / 1000);
};

/**
 * What a request is counted on (docs/sensor-data.md, "Metering"): a device's month, shared by the people who reach it
 * through their own relations and campaigns, or a person's own allowance for other people's public devices. The
 * usage item's key starts with it; a device id cannot hold `#`, so the two never meet.
 */
export type QuotaMeter = { kind: 'device'; deviceId: string } | { kind: 'public'; ownerId: string };

export const meterKey = (meter: QuotaMeter): string =>
  meter.kind === 'device' ? meter.deviceId : `public#${meter.ownerId}`;
