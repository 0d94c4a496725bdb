import { ownValue } from '../../../shared/objects/own-value';
import { type ChartResolution, dayStart, hoursOf, periodOf } from '../../../shared/sensor-data/chart-files';
import { qualityOf } from '../../../shared/sensor-data/quality';
import type { ReadingView } from '../../_shared/sensor-data/quality-profile';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import type { ChartObject, ChartSeries, ChartStats } from './ports';

/** One measurement over one bucket: count, sum, min, max (the mean is s / n; sums add up across buckets). */
export interface Aggregate {
  n: number;
  s: number;
  lo: number;
  hi: number;
}

/** A bucket's aggregates by measurement name (the rollups table's `m`). */
export type Aggregates = Record<string, Aggregate>;

/** One measurement's values split by quality: good, suspect, bad (a class without values is absent). */
export interface Classes {
  g?: Aggregate;
  s?: Aggregate;
  b?: Aggregate;
}

/**
 * A bucket's roll-up (docs/data-quality.md "Roll-ups"): `m` of the corrected values that are not excluded, every
 * quality, as before calibrations existed (so older items read the same); `q` split by quality for a measurement
 * with suspect or bad values; `r` and `rq` the same of the raw values for a measurement a calibration corrected in
 * the bucket (elsewhere raw and corrected are one); `cal` the newest calibration version used; `pv` the quality
 * profile version it was computed with (an item without it predates profiles: 0).
 */
export interface RollupBucket {
  m: Aggregates;
  q?: Record<string, Classes>;
  r?: Aggregates;
  rq?: Record<string, Classes>;
  cal?: Record<string, number>;
  pv?: number;
}

/** A stored roll-up: the bucket's start (ms, UTC) and its aggregates. */
export interface RollupItem extends RollupBucket {
  ts: number;
}

const CLASS_OF = { good: 'g', suspect: 's', bad: 'b' } as const;

const addValue = (into: Record<string, Aggregate>, name: string, value: number) => {
  const a = ownValue(into, name);
  if (a) {
    a.n += 1;
    a.s += value;
    if (value < a.lo) a.lo = value;
    if (value > a.hi) a.hi = value;
  } else {
    into[name] = { n: 1, s: value, lo: value, hi: value };
  }
};

const merge = (a: Aggregate | undefined, b: Aggregate | undefined): Aggregate | undefined =>
  !a
    ? b
      ? { ...b }
      : undefined
    : !b
      ? { ...a }
      : { n: a.n + b.n, s: a.s + b.s, lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi) };

/** Adds readings to aggregates (in place), skipping values that are not finite numbers. */
export const addReadings = (into: Aggregates, readings: Iterable<StoredReading>): Aggregates => {
  for (const reading of readings) {
    for (const [name, value] of Object.entries(reading.values)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      addValue(into, name, value);
    }
  }
  return into;
};

/** A bucket being filled from reading views; `bucketOf` makes it the stored shape. */
export interface BucketBuilder {
  add: (view: ReadingView) => void;
  bucket: (pv: number) => RollupBucket;
}

/**
 * Fills one bucket from readings seen through the device's quality profile: corrected values, excluded ones left
 * out, each value counted in its quality's class and, where a calibration corrected it, its raw value beside it.
 */
export const bucketBuilder = (): BucketBuilder => {
  const m: Aggregates = {};
  const raw: Aggregates = {};
  const classes: Record<string, Record<'g' | 's' | 'b', Aggregates>> = {};
  const flagged = new Set<string>();
  const calibrated = new Map<string, number>();
  return {
    add: (view) => {
      for (const [name, value] of Object.entries(view.values)) {
        if (!Number.isFinite(value)) continue;
        const rawValue = view.raw[name]!;
        const quality = qualityOf(ownValue(view.reasons, name));
        addValue(m, name, value);
        addValue(raw, name, rawValue);
        const c = CLASS_OF[quality];
        if (quality !== 'good') flagged.add(name);
        classes[name] ??= { g: {}, s: {}, b: {} };
        addValue(classes[name]![c], 'c', value);
        addValue(classes[name]![c], 'r', rawValue);
        const version = ownValue(view.calibration, name);
        if (version !== undefined) calibrated.set(name, Math.max(version, calibrated.get(name) ?? 0));
      }
    },
    bucket: (pv) => {
      const bucket: RollupBucket = { m };
      const split = (key: 'c' | 'r', name: string): Classes => {
        const of = classes[name]!;
        return Object.fromEntries(
          (['g', 's', 'b'] as const).flatMap((c) => (of[c][key] ? [[c, of[c][key]]] : [])),
        ) as Classes;
      };
      if (flagged.size) bucket.q = Object.fromEntries([...flagged].map((name) => [name, split('c', name)]));
      if (calibrated.size) {
        bucket.r = Object.fromEntries([...calibrated.keys()].map((name) => [name, raw[name]!]));
        const both = [...calibrated.keys()].filter((name) => flagged.has(name));
        if (both.length) bucket.rq = Object.fromEntries(both.map((name) => [name, split('r', name)]));
        bucket.cal = Object.fromEntries(calibrated);
      }
      if (pv) bucket.pv = pv;
      return bucket;
    },
  };
};

/** Does a bucket hold any value? A recompute removes one that does not. */
export const isEmpty = (bucket: RollupBucket) => Object.keys(bucket.m).length === 0;

/** A measurement's classes in a bucket: all good where the bucket kept no split. */
const classesOf = (bucket: RollupBucket, name: string): Classes =>
  ownValue(bucket.q ?? {}, name) ?? { g: ownValue(bucket.m, name) };
const rawOf = (bucket: RollupBucket, name: string): Aggregate | undefined =>
  ownValue(bucket.r ?? {}, name) ?? ownValue(bucket.m, name);
const rawClassesOf = (bucket: RollupBucket, name: string): Classes =>
  ownValue(bucket.r ?? {}, name)
    ? (ownValue(bucket.rq ?? {}, name) ?? { g: ownValue(bucket.r!, name) })
    : classesOf(bucket, name);

/** Aggregates of a larger bucket from those of its parts (a day from its hours); its `pv` is their oldest. */
export const combineBuckets = (parts: readonly RollupBucket[]): RollupBucket => {
  const out: RollupBucket = { m: combine(parts.map((part) => part.m)) };
  const names = Object.keys(out.m);
  const sum = (pick: (part: RollupBucket) => Classes): Classes => {
    const total: Classes = {};
    for (const part of parts) {
      const c = pick(part);
      for (const key of ['g', 's', 'b'] as const) {
        const merged = merge(total[key], c[key]);
        if (merged) total[key] = merged;
      }
    }
    return total;
  };
  for (const name of names) {
    const has = parts.filter((part) => ownValue(part.m, name));
    if (has.some((part) => ownValue(part.q ?? {}, name))) {
      out.q ??= {};
      out.q[name] = sum((part) => classesOf(part, name));
    }
    if (has.some((part) => ownValue(part.r ?? {}, name))) {
      out.r ??= {};
      out.r[name] = has.reduce<Aggregate | undefined>((a, part) => merge(a, rawOf(part, name)), undefined)!;
      if (out.q?.[name]) {
        out.rq ??= {};
        out.rq[name] = sum((part) => rawClassesOf(part, name));
      }
      out.cal ??= {};
      out.cal[name] = Math.max(...has.map((part) => ownValue(part.cal ?? {}, name) ?? 0));
    }
  }
  const pv = parts.length ? Math.min(...parts.map((part) => part.pv ?? 0)) : 0;
  if (pv) out.pv = pv;
  return out;
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

const stats = (length: number): ChartStats => ({
  min: new Array(length).fill(null),
  max: new Array(length).fill(null),
  mean: new Array(length).fill(null),
  count: new Array(length).fill(null),
});

const setStats = (into: ChartStats, i: number, a: Aggregate | undefined) => {
  if (!a) return;
  into.min[i] = a.lo;
  into.max[i] = a.hi;
  into.mean[i] = a.n > 0 ? a.s / a.n : null;
  into.count[i] = a.n;
};

/**
 * The columnar chart object of one period from its roll-ups (any order; one per bucket). A measurement's quality
 * split (`q`), raw columns (`raw`) and calibration versions (`cal`) are written only for a measurement that has them
 * somewhere in the period, and then for every bucket (a bucket of only good values holds them in `q.g`).
 */
export const toChartObject = (
  deviceId: string,
  resolution: ChartResolution,
  period: string,
  items: readonly RollupItem[],
): ChartObject => {
  const sorted = [...items].sort((a, b) => a.ts - b.ts);
  const names = [...new Set(sorted.flatMap((item) => Object.keys(item.m)))].sort();
  const length = sorted.length;
  const m: Record<string, ChartSeries> = {};
  for (const name of names) {
    const series: ChartSeries = stats(length);
    const split = sorted.some((item) => ownValue(item.q ?? {}, name));
    const calibrated = sorted.some((item) => ownValue(item.r ?? {}, name));
    if (split) series.q = { g: stats(length), s: stats(length), b: stats(length) };
    if (calibrated) {
      series.raw = {
        ...stats(length),
        ...(split ? { q: { g: stats(length), s: stats(length), b: stats(length) } } : {}),
      };
      series.cal = new Array(length).fill(null);
    }
    sorted.forEach((item, i) => {
      const a = ownValue(item.m, name);
      if (!a) return;
      setStats(series, i, a);
      if (series.q) {
        const c = classesOf(item, name);
        for (const key of ['g', 's', 'b'] as const) setStats(series.q[key], i, c[key]);
      }
      if (series.raw) {
        setStats(series.raw, i, rawOf(item, name));
        if (series.raw.q) {
          const c = rawClassesOf(item, name);
          for (const key of ['g', 's', 'b'] as const) setStats(series.raw.q[key], i, c[key]);
        }
        series.cal![i] = ownValue(item.cal ?? {}, name) ?? null;
      }
    });
    m[name] = series;
  }
  const object: ChartObject = { deviceId, resolution, period, t: sorted.map((item) => item.ts), m };
  if (sorted.some((item) => item.pv)) object.pv = sorted.map((item) => item.pv ?? 0);
  return object;
};

/** What a roll-up message touches beyond its hours: the days, hour objects (months) and day objects (years). */
export const affectedBy = (hours: readonly number[]) => ({
  hours: hoursOf(hours),
  days: [...new Set(hours.map(dayStart))].sort((a, b) => a - b),
  months: [...new Set(hours.map((h) => periodOf('hour', h)))].sort(),
  years: [...new Set(hours.map((h) => periodOf('day', h)))].sort(),
});
