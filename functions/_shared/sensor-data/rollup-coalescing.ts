import { HOUR_MS } from '../../../shared/sensor-data/chart-files';

/**
 * How ingest asks for roll-ups (ROLLUP_COALESCING, per environment in infra/definitions/environments.ts):
 * - `none`: each batch's hours are recomputed as soon as the worker takes its message.
 * - `hour`: a batch's message waits until its newest hour has ended (and a minute more for batches still on their
 *   way), so a device reporting every minute gets one recompute of the hour instead of sixty. Only the hour's first
 *   batch sends a message (ingest marks it on the device record); any other message of the hour finds the hour
 *   recomputed after it was due and sent, and has nothing left to do (`recomputeRollups`).
 *   Charts of hourly points read the hours not yet rolled up from the readings (`createSeriesPoints`).
 *   docs/decisions/042-hourly-roll-ups.md.
 */
export const ROLLUP_COALESCING = ['none', 'hour'] as const;
export type RollupCoalescing = (typeof ROLLUP_COALESCING)[number];
export const ROLLUP_COALESCING_ENV = 'ROLLUP_COALESCING';

/** A batch of an hour's last minute may arrive a little after the hour: the hour's recompute waits for it. */
export const ROLLUP_GRACE_MS = 60 * 1000;
/**
 * A batch within this long of its hour's due time sends a message of its own even when one is on its way: its
 * readings, written now, might otherwise land after that message's recompute has read the hour.
 */
export const ROLLUP_SEND_MARGIN_MS = 30 * 1000;

/** When the roll-up of a batch's hours may run: undefined for at once (an hour long over, or no coalescing). */
export const rollupNotBefore = (
  hours: readonly number[],
  now: number,
  coalescing: RollupCoalescing,
): number | undefined => {
  if (coalescing === 'none' || hours.length === 0) return undefined;
  const due = Math.floor(Math.max(...hours) / HOUR_MS) * HOUR_MS + HOUR_MS + ROLLUP_GRACE_MS;
  return due > now ? due : undefined;
};
