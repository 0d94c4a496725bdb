import { ownValue } from '../../../shared/objects/own-value';
import { type ChartResolution, dayStart, hoursOf, periodOf } from '../../../shared/sensor-data/chart-files';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import type { ChartObject, ChartSeries } from './ports';

/** One measurement over one bucket: count, sum, min, max (the mean is s / n; sums add up across buckets). */
export interface Aggregate {
  n: number;
  s: number;
  lo: number;
  hi: number;
}

/** A bucket's aggregates by measurement name (the rollups table's `m`). */
export type Aggregates = Record<string, Aggregate>;

/** A stored roll-up: the bucket's start (ms, UTC) and its aggregates. */
export interface RollupItem {
  ts: number;
  m: Aggregates;
}

/** Adds readings to aggregates (in place), skipping values that are not finite numbers. */
export const addReadings = (into: Aggregates, readings: Iterable<StoredReading>): Aggregates => {
  for (const reading of readings) {
    for (const [name, value] of Object.entries(reading.values)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      const a = ownValue(into, name);
      if (a) {
        a.n += 1;
        a.s += value;
        if (value < a.lo) a.lo = value;
        if (value > a.hi) a.hi = value;
      } else {
        into[name] = { n: 1, s: value, lo: value, hi: value };
      }
    }
  }
  return into;
};

/** Aggregates of a larger bucket from those of its parts (a day from its hours). */
export const combine = (parts: Iterable<Aggregates>): Aggregates => {
  const out: Aggregates = {};
  for (const part of parts) {
    for (const [name, p] of Object.entries(part)) {
      const a = ownValue(out, name);
      if (a) {
        a.n += p.n;
        a.s += p.s;
        a.lo = Math.min(a.lo, p.lo);
        a.hi = Math.max(a.hi, p.hi);
      } else {
        out[name] = { ...p };
      }
    }
  }
  return out;
};

/** The columnar chart object of one period from its roll-ups (any order; one per bucket). */
export const toChartObject = (
  deviceId: string,
  resolution: ChartResolution,
  period: string,
  items: readonly RollupItem[],
): ChartObject => {
  const sorted = [...items].sort((a, b) => a.ts - b.ts);
  const names = [...new Set(sorted.flatMap((item) => Object.keys(item.m)))].sort();
  const m: Record<string, ChartSeries> = {};
  for (const name of names) {
    const series: ChartSeries = { min: [], max: [], mean: [], count: [] };
    for (const item of sorted) {
      const a = ownValue(item.m, name);
      series.min.push(a ? a.lo : null);
      series.max.push(a ? a.hi : null);
      series.mean.push(a && a.n > 0 ? a.s / a.n : null);
      series.count.push(a ? a.n : null);
    }
    m[name] = series;
  }
  return { deviceId, resolution, period, t: sorted.map((item) => item.ts), m };
};

/** What a roll-up message touches beyond its hours: the days, hour objects (months) and day objects (years). */
export const affectedBy = (hours: readonly number[]) => ({
  hours: hoursOf(hours),
  days: [...new Set(hours.map(dayStart))].sort((a, b) => a - b),
  months: [...new Set(hours.map((h) => periodOf('hour', h)))].sort(),
  years: [...new Set(hours.map((h) => periodOf('day', h)))].sort(),
});
