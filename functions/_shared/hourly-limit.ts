import { TooManyRequests } from './errors';

const HOUR_MS = 3_600_000;

/**
 * Counts one more use by `subject` in the UTC hour starting `hourStart` (ms).
 * @returns false, counting nothing, when `limit` uses were already counted in that hour
 */
export type HourlyCount = (subject: string, hourStart: number, limit: number) => Promise<boolean>;

/**
 * Takes one of the `limit` uses `subject` has in the hour `at` falls in, or refuses with 429, the message `tooMany`
 * gives, and Retry-After until the next hour starts. The window is the clock hour, not the last 60 minutes: one
 * counter item an hour, no read before the write.
 */
export const takeHourlyUse = async (
  count: HourlyCount,
  { subject, limit, at }: { subject: string; limit: number; at: number },
  tooMany: (limit: number, nextAt: number) => string,
): Promise<void> => {
  const hourStart = Math.floor(at / HOUR_MS) * HOUR_MS;
  if (await count(subject, hourStart, limit)) return;
  const nextAt = hourStart + HOUR_MS;
  throw new TooManyRequests(tooMany(limit, nextAt), {
    'retry-after': String(Math.max(1, Math.ceil((nextAt - at) / 1000))),
  });
};
