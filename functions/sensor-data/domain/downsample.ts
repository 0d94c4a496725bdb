import type { TimeRange } from '../../../shared/campaigns/window';
import type { SeriesResolution } from '../../../shared/contracts/sensor-data-readings';
import { gapThreshold } from '../../../shared/sensor-data/gaps';

/** How long one source point spans: raw readings are about a minute apart; roll-ups are hours and days. */
export const RESOLUTION_MS: Record<SeriesResolution, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** Up to this long a chart reads raw readings (2 days of 1-minute data: 2,880 items per measurement). */
export const RAW_UP_TO_MS = 2 * RESOLUTION_MS.day;
/** Up to this long it reads the hourly roll-ups (≤ 9,600 points); beyond, the daily ones. */
export const HOURLY_UP_TO_MS = 400 * RESOLUTION_MS.day;

/** The cheapest source whose points are still no coarser than a bucket of the chart, given the range's length. */
export const resolutionFor = (range: TimeRange): SeriesResolution => {
  const span = range.to - range.from;
  if (span <= RAW_UP_TO_MS) return 'minute';
  if (span <= HOURLY_UP_TO_MS) return 'hour';
  return 'day';
};

/**
 * A bucket about `(to - from) / width` long, a whole number of source periods (so a roll-up point is never split
 * between two buckets), and aligned to the epoch (so the same range asked twice buckets the same).
 */
export const bucketMsFor = (range: TimeRange, width: number, resolution: SeriesResolution): number => {
  const unit = RESOLUTION_MS[resolution];
  const wanted = Math.max(1, Math.ceil((range.to - range.from) / width));
  return Math.max(1, Math.ceil(wanted / unit)) * unit;
};

/**
 * Four significant digits: a chart 2,000 pixels high cannot show more, and it keeps a year's payload small
 * (docs/sensor-data.md, "Reads and charts").
 */
export const roundForChart = (value: number): number => {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(4));
};

/** One measurement's chart columns, aligned with the kept bucket starts. */
export interface ChartColumns {
  min: (number | null)[];
  max: (number | null)[];
  mean: (number | null)[];
  gapMs: number | null;
  /** Per bucket, its suspect and bad readings (of every quality the read kept or not; excluded ones are gone). */
  suspect: number[];
  bad: number[];
  /** The raw values' columns, when the read asked for both. */
  raw?: { min: (number | null)[]; max: (number | null)[]; mean: (number | null)[] };
  /** Per bucket, the newest calibration version its corrected values used; absent when none did. */
  calibration?: (number | null)[];
}

/** One point's min, max, mean and how many readings it stands for. */
export interface PointStats {
  min: number;
  max: number;
  mean: number;
  count: number;
}

interface Stats {
  min: Float64Array;
  max: Float64Array;
  sum: Float64Array;
  count: Float64Array;
}

interface Columns extends Stats {
  suspect: Float64Array;
  bad: Float64Array;
  /** The newest calibration version per bucket; 0: none. */
  cal: Float64Array;
  raw?: Stats;
}

const newStats = (size: number): Stats => ({
  min: new Float64Array(size).fill(Number.POSITIVE_INFINITY),
  max: new Float64Array(size).fill(Number.NEGATIVE_INFINITY),
  sum: new Float64Array(size),
  count: new Float64Array(size),
});

const addStats = (c: Stats, index: number, { min, max, mean, count }: PointStats) => {
  if (min < c.min[index]!) c.min[index] = min;
  if (max > c.max[index]!) c.max[index] = max;
  c.sum[index]! += mean * count;
  c.count[index]! += count;
};

/**
 * Accumulates points into fixed buckets per measurement: min of the minima, max of the maxima, and the mean
 * weighted by each point's count (so an hour of 60 readings weighs 60 times a single reading); beside them each
 * bucket's suspect and bad counts, its calibration version and, with `raw`, the raw values' own columns. Typed
 * arrays: a year of hourly points for a dozen measurements is ~100,000 additions.
 */
export const createBuckets = (range: TimeRange, bucketMs: number, { raw = false }: { raw?: boolean } = {}) => {
  const first = Math.floor(range.from / bucketMs);
  const size = Math.floor(range.to / bucketMs) - first + 1;
  const columns = new Map<string, Columns>();

  const columnsOf = (name: string): Columns => {
    let found = columns.get(name);
    if (!found) {
      found = {
        ...newStats(size),
        suspect: new Float64Array(size),
        bad: new Float64Array(size),
        cal: new Float64Array(size),
        ...(raw ? { raw: newStats(size) } : {}),
      };
      columns.set(name, found);
    }
    return found;
  };
  const indexOf = (time: number) => {
    const index = Math.floor(time / bucketMs) - first;
    return index < 0 || index >= size ? undefined : index;
  };

  return {
    size,
    /**
     * One point of one measurement at `time`: a reading (count 1) or a roll-up's aggregate; with `raw`, the raw values'
     * point beside it, and the calibration version its corrected values used.
     */
    add: (
      time: number,
      name: string,
      min: number,
      max: number,
      mean: number,
      count = 1,
      extra?: { raw?: PointStats; cal?: number },
    ) => {
      const index = indexOf(time);
      if (index === undefined || !(count > 0) || !Number.isFinite(mean)) return;
      const c = columnsOf(name);
      addStats(c, index, { min, max, mean, count });
      if (c.raw) addStats(c.raw, index, extra?.raw ?? { min, max, mean, count });
      if (extra?.cal && extra.cal > c.cal[index]!) c.cal[index] = extra.cal;
    },
    /** Suspect and bad readings of a measurement at `time`, whether or not the read keeps them. */
    count: (time: number, name: string, suspect: number, bad: number) => {
      const index = indexOf(time);
      if (index === undefined || (!suspect && !bad)) return;
      const c = columnsOf(name);
      c.suspect[index]! += suspect;
      c.bad[index]! += bad;
    },
    /**
     * Bucket starts, and per measurement (those asked for, in that order; else those seen) its columns and the
     * silence after which its line breaks. Buckets in which no returned measurement has a value are left out:
     * they are not gaps (a device reporting every 10 minutes leaves four 2-minute buckets in five empty), and
     * a year of sparse data shrinks to the buckets that hold it.
     */
    result: (names?: readonly string[]) => {
      const returned = (names ?? [...columns.keys()].sort()).map((name) => [name, columns.get(name)] as const);
      const kept: number[] = [];
      for (let i = 0; i < size; i++) {
        if (returned.some(([, c]) => c !== undefined && c.count[i]! > 0)) kept.push(i);
      }
      const t = kept.map((i) => (first + i) * bucketMs);
      const series: Record<string, ChartColumns> = {};
      const column = (c: Stats | undefined, pick: (s: Stats, i: number) => number) =>
        kept.map((i) => (c && c.count[i]! > 0 ? roundForChart(pick(c, i)) : null));
      for (const [name, c] of returned) {
        const seen = kept.flatMap((i, k) => (c && c.count[i]! > 0 ? [t[k]!] : []));
        const cal = kept.map((i) => (c && c.count[i]! > 0 && c.cal[i]! > 0 ? c.cal[i]! : null));
        series[name] = {
          min: column(c, (s, i) => s.min[i]!),
          max: column(c, (s, i) => s.max[i]!),
          mean: column(c, (s, i) => s.sum[i]! / s.count[i]!),
          gapMs: gapThreshold(seen),
          suspect: kept.map((i) => c?.suspect[i] ?? 0),
          bad: kept.map((i) => c?.bad[i] ?? 0),
          ...(raw
            ? {
                raw: {
                  min: column(c?.raw, (s, i) => s.min[i]!),
                  max: column(c?.raw, (s, i) => s.max[i]!),
                  mean: column(c?.raw, (s, i) => s.sum[i]! / s.count[i]!),
                },
              }
            : {}),
          ...(cal.some((v) => v !== null) ? { calibration: cal } : {}),
        };
      }
      return { t, series };
    },
  };
};

/**
 * May a roll-up point spanning `[start, start + periodMs)` be shown for these readable parts? Only when it lies
 * wholly inside one part: an hour that began before the tier's window or ran past a campaign's end would show
 * data the caller may not see. A part that reaches `now` is open-ended: nothing later exists yet.
 */
export const periodFits = (start: number, periodMs: number, parts: readonly TimeRange[], now: number): boolean =>
  parts.some((part) => start >= part.from && (start + periodMs - 1 <= part.to || (part.to >= now && start <= part.to)));
