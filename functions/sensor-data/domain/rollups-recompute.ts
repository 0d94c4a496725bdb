import { type ChartResolution, DAY_MS, HOUR_MS, periodRange } from '../../../shared/sensor-data/chart-files';
import type { ReadingsStore } from '../../_shared/sensor-data/readings-store';
import type { ChartDataStore } from './ports';
import { type Aggregates, addReadings, affectedBy, combine, type RollupItem, toChartObject } from './rollups';

export interface RollupStore {
  /** Writes a recomputed bucket; a bucket without any value is removed so a recompute leaves no stale item. */
  put: (deviceId: string, resolution: ChartResolution, ts: number, m: Aggregates) => Promise<void>;
  /** Buckets starting in `[from, to]`, oldest first. */
  range: (deviceId: string, resolution: ChartResolution, from: number, to: number) => Promise<RollupItem[]>;
}

export interface RollupDeps {
  readings: Pick<ReadingsStore, 'scan'>;
  rollups: RollupStore;
  charts: Pick<ChartDataStore, 'write'>;
}

/**
 * Recomputes, from the raw readings, every hour a roll-up message lists, then the days and the chart-data
 * objects (months of hours, years of days) those hours fall in. A pure recompute: a redelivered or repeated
 * message writes the same result, so the worker may retry it freely.
 */
export const recomputeRollups = async (
  { deviceId, hours }: { deviceId: string; hours: readonly number[] },
  { readings, rollups, charts }: RollupDeps,
) => {
  const affected = affectedBy(hours);
  // Oldest first: a large backfill lands in time order, so a partial run leaves a consistent prefix. One read
  // per day (not per hour) covers the day's listed hours: a year of backfill is 365 reads, not 8,760.
  const hoursByDay = new Map<number, number[]>();
  for (const hour of affected.hours) {
    const day = Math.floor(hour / DAY_MS) * DAY_MS;
    hoursByDay.set(day, [...(hoursByDay.get(day) ?? []), hour]);
  }
  for (const dayHours of hoursByDay.values()) {
    const byHour = new Map<number, Aggregates>(dayHours.map((hour) => [hour, {}]));
    const first = dayHours[0]!;
    const last = dayHours[dayHours.length - 1]!;
    for await (const chunk of readings.scan(deviceId, { from: first, to: last + HOUR_MS - 1 })) {
      for (const reading of chunk) {
        const bucket = byHour.get(Math.floor(reading.timestamp / HOUR_MS) * HOUR_MS);
        if (bucket) addReadings(bucket, [reading]);
      }
    }
    await Promise.all([...byHour].map(([hour, m]) => rollups.put(deviceId, 'hour', hour, m)));
  }
  for (const day of affected.days) {
    const parts = await rollups.range(deviceId, 'hour', day, day + DAY_MS - 1);
    await rollups.put(deviceId, 'day', day, combine(parts.map((p) => p.m)));
  }
  for (const month of affected.months) {
    const { from, to } = periodRange(month);
    await charts.write(toChartObject(deviceId, 'hour', month, await rollups.range(deviceId, 'hour', from, to)));
  }
  for (const year of affected.years) {
    const { from, to } = periodRange(year);
    await charts.write(toChartObject(deviceId, 'day', year, await rollups.range(deviceId, 'day', from, to)));
  }
  return { deviceId, ...Object.fromEntries(Object.entries(affected).map(([k, v]) => [k, v.length])) };
};
