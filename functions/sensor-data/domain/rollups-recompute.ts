import { type ChartResolution, DAY_MS, HOUR_MS, periodRange } from '../../../shared/sensor-data/chart-files';
import { type QualityProfile, viewReading } from '../../_shared/sensor-data/quality-profile';
import type { ReadingsStore } from '../../_shared/sensor-data/readings-store';
import type { ChartDataStore } from './ports';
import {
  affectedBy,
  type BucketBuilder,
  bucketBuilder,
  combineBuckets,
  type RollupBucket,
  type RollupItem,
  toChartObject,
} from './rollups';

export interface RollupStore {
  /** Writes a recomputed bucket; a bucket without any value is removed so a recompute leaves no stale item. */
  put: (deviceId: string, resolution: ChartResolution, ts: number, bucket: RollupBucket) => Promise<void>;
  /** Buckets starting in `[from, to]`, oldest first. */
  range: (deviceId: string, resolution: ChartResolution, from: number, to: number) => Promise<RollupItem[]>;
  /**
   * Marks hour buckets recomputed in full, charts included, from readings read at `at` or later. An hour without a
   * bucket (no values) stays unmarked.
   */
  markDone: (deviceId: string, hours: readonly number[], at: number) => Promise<void>;
  /** When each hour was last marked done (strongly consistent); an hour never marked is absent. */
  doneAt: (deviceId: string, hours: readonly number[]) => Promise<Map<number, number>>;
}

export interface RollupDeps {
  readings: Pick<ReadingsStore, 'scan'>;
  rollups: RollupStore;
  charts: Pick<ChartDataStore, 'write'>;
  /** The device's calibrations and exclusions, read consistently (docs/data-quality.md). */
  profiles: { read: (deviceId: string) => Promise<QualityProfile> };
  now: () => number;
}

/**
 * Messages of up to this many hours are checked against the hours' done marks first, and a recompute of up to this
 * many marks them: a device's live batches list one or two hours; a backfill of weeks is recomputed without either.
 */
const DONE_CHECK_MAX_HOURS = 24;
/** A recompute counts for a message only if it read the readings this long after the message was sent (clock skew). */
const DONE_MARGIN_MS = 1_000;

/**
 * Whether every hour of a message was recomputed from readings read after the message was sent: the message's
 * readings (written before it was sent) are in that result. A coalesced message (`notBefore`) also stands for the
 * batches of its hour that sent none (ingest's `askForRollup`), all stored before it was due, so it is done only by a
 * recompute that read the hours once it was due.
 */
const alreadyDone = async (
  rollups: RollupStore,
  deviceId: string,
  hours: readonly number[],
  sentAt: number | undefined,
  notBefore: number | undefined,
): Promise<boolean> => {
  if (sentAt === undefined || hours.length > DONE_CHECK_MAX_HOURS) return false;
  const since = Math.max(sentAt + DONE_MARGIN_MS, notBefore ?? 0);
  const done = await rollups.doneAt(deviceId, hours);
  return hours.every((hour) => (done.get(hour) ?? 0) >= since);
};

/**
 * Recomputes, from the raw readings seen through the device's quality profile (corrected, excluded values left out,
 * split by quality: docs/data-quality.md "Roll-ups"), every hour a roll-up message lists, then the days and the
 * chart-data objects (months of hours, years of days) those hours fall in; each bucket records the profile version it
 * was computed with. A pure recompute: a redelivered or repeated message writes the same result, so the worker may
 * retry it freely. A message sent (`sentAt`) before its hours'
 * last complete recompute began, and due (`notBefore`) by then, has nothing left to do and is skipped.
 */
export const recomputeRollups = async (
  {
    deviceId,
    hours,
    sentAt,
    notBefore,
  }: { deviceId: string; hours: readonly number[]; sentAt?: number; notBefore?: number },
  { readings, rollups, charts, profiles, now }: RollupDeps,
) => {
  const affected = affectedBy(hours);
  if (await alreadyDone(rollups, deviceId, affected.hours, sentAt, notBefore)) {
    return { deviceId, skipped: 'recomputed since sent' };
  }
  // Before the first read: what the done mark promises is that every reading written before this time is counted,
  // and what `pv` promises is that every change of the profile up to its version is in the buckets.
  const startedAt = now();
  const profile = await profiles.read(deviceId);
  // Oldest first: a large backfill lands in time order, so a partial run leaves a consistent prefix. One read
  // per day (not per hour) covers the day's listed hours: a year of backfill is 365 reads, not 8,760.
  const hoursByDay = new Map<number, number[]>();
  for (const hour of affected.hours) {
    const day = Math.floor(hour / DAY_MS) * DAY_MS;
    hoursByDay.set(day, [...(hoursByDay.get(day) ?? []), hour]);
  }
  for (const dayHours of hoursByDay.values()) {
    const byHour = new Map<number, BucketBuilder>(dayHours.map((hour) => [hour, bucketBuilder()]));
    const first = dayHours[0]!;
    const last = dayHours[dayHours.length - 1]!;
    for await (const chunk of readings.scan(deviceId, { from: first, to: last + HOUR_MS - 1, consistent: true })) {
      for (const reading of chunk) {
        const bucket = byHour.get(Math.floor(reading.timestamp / HOUR_MS) * HOUR_MS);
        if (bucket) bucket.add(viewReading(reading, profile));
      }
    }
    await Promise.all([...byHour].map(([hour, b]) => rollups.put(deviceId, 'hour', hour, b.bucket(profile.version))));
  }
  for (const day of affected.days) {
    const parts = await rollups.range(deviceId, 'hour', day, day + DAY_MS - 1);
    await rollups.put(deviceId, 'day', day, combineBuckets(parts));
  }
  for (const month of affected.months) {
    const { from, to } = periodRange(month);
    await charts.write(toChartObject(deviceId, 'hour', month, await rollups.range(deviceId, 'hour', from, to)));
  }
  for (const year of affected.years) {
    const { from, to } = periodRange(year);
    await charts.write(toChartObject(deviceId, 'day', year, await rollups.range(deviceId, 'day', from, to)));
  }
  // Last, so a recompute that failed on the way leaves its message to be retried rather than marked done.
  if (affected.hours.length <= DONE_CHECK_MAX_HOURS) await rollups.markDone(deviceId, affected.hours, startedAt);
  return {
    deviceId,
    pv: profile.version,
    ...Object.fromEntries(Object.entries(affected).map(([k, v]) => [k, v.length])),
  };
};
