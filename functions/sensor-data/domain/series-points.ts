import type { TimeRange } from '../../../shared/campaigns/window';
import type { MeasurementSeries, SeriesResolution } from '../../../shared/contracts/sensor-data-readings';
import { labelOf, unitOf } from '../../../shared/sensor-data/measurements';
import { keeps, type QualityFilter, qualityOf, type ValueChoice } from '../../../shared/sensor-data/quality';
import { type QualityProfile, viewReading } from '../../_shared/sensor-data/quality-profile';
import type { ReadingsStore } from '../../_shared/sensor-data/readings-store';
import { type ChartColumns, type createBuckets, type PointStats, periodFits, RESOLUTION_MS } from './downsample';
import type { ChartSeries, ChartStats, ChartColumns as RollupColumns } from './ports';

export type { RollupColumns };

/** Reads the hourly or daily roll-ups that overlap `[from, to]` (the chart-data objects, merged). */
export type RollupReader = (
  deviceId: string,
  resolution: 'hour' | 'day',
  from: number,
  to: number,
) => Promise<RollupColumns>;

/**
 * How far before the hour under way a chart of hourly points reads the readings for hours not yet rolled up: one
 * hour, whose roll-up lands a minute after it ends.
 */
const FRESH_TAIL_MS = RESOLUTION_MS.hour;

export interface SeriesPointsDeps {
  readings: Pick<ReadingsStore, 'scan'>;
  rollups: RollupReader;
}

/** What one device's points are read for: its readable parts, its quality profile and what the read keeps. */
export interface PointsRequest {
  deviceId: string;
  resolution: SeriesResolution;
  parts: readonly TimeRange[];
  wanted: ReadonlySet<string> | undefined;
  at: number;
  profile: QualityProfile;
  quality: QualityFilter;
  values: ValueChoice;
}

type Buckets = Pick<ReturnType<typeof createBuckets>, 'add' | 'count'>;

const statAt = (stats: ChartStats | undefined, i: number): PointStats | undefined => {
  const count = stats?.count[i];
  const mean = stats?.mean[i];
  if (!stats || count === null || count === undefined || !(count > 0) || mean === null || mean === undefined) {
    return undefined;
  }
  return { min: stats.min[i] ?? mean, max: stats.max[i] ?? mean, mean, count };
};

const joined = (a: PointStats | undefined, b: PointStats | undefined): PointStats | undefined =>
  !a
    ? b
    : !b
      ? a
      : {
          min: Math.min(a.min, b.min),
          max: Math.max(a.max, b.max),
          mean: (a.mean * a.count + b.mean * b.count) / (a.count + b.count),
          count: a.count + b.count,
        };

interface ClassStats {
  all?: PointStats;
  g?: PointStats;
  s?: PointStats;
  b?: PointStats;
}

/**
 * A bucket's stats split by quality: from the `q` columns where the bucket has them, else all good (an object
 * without a split, or a bucket of only good values merged from one).
 */
const classesAt = (stats: ChartStats & { q?: ChartSeries['q'] }, i: number): ClassStats => {
  const all = statAt(stats, i);
  if (!all) return {};
  const q = stats.q;
  if (q && [q.g, q.s, q.b].some((c) => c.count[i] !== null && c.count[i] !== undefined)) {
    return { all, g: statAt(q.g, i), s: statAt(q.s, i), b: statAt(q.b, i) };
  }
  return { all, g: all };
};

const kept = (classes: ClassStats, filter: QualityFilter) =>
  filter === 'all' ? classes.all : filter === 'good' ? classes.g : joined(classes.g, classes.s);

/** Does a change not yet in the bucket's roll-up touch it? An exclusion's hides it; a calibration's only flags it. */
const staleness = (profile: QualityProfile, start: number, periodMs: number, pv: number) => {
  let hidden = false;
  let stale = false;
  for (const change of profile.pending) {
    if (change.v <= pv || change.to < start || change.from >= start + periodMs) continue;
    stale = true;
    if (change.kind === 'exclusion') hidden = true;
  }
  return { hidden, stale };
};

/**
 * Puts one device's points over its readable parts into chart buckets: the raw readings at minute resolution, else
 * the hourly or daily roll-ups, of which only periods wholly inside a readable part count (periodFits), with the
 * newest hours not yet rolled up read from the readings. Readings are seen through the device's quality profile
 * (corrected, excluded values left out, docs/data-quality.md), roll-ups were computed so; a roll-up a change has not
 * reached yet is left out when an exclusion touches it (so an excluded value is gone at once) and answered, flagged as
 * being reprocessed, when only a calibration does. One code path for a device's own chart and a campaign's
 * comparison, so both show exactly what the gate lets through. Answers whether any roll-up was being reprocessed.
 */
export const createSeriesPoints =
  ({ readings, rollups }: SeriesPointsDeps) =>
  async (buckets: Buckets, request: PointsRequest): Promise<{ reprocessing: boolean }> => {
    const { deviceId, resolution, parts, wanted, at, profile, quality, values } = request;
    if (parts.length === 0) return { reprocessing: false };
    const addReadings = async (part: TimeRange) => {
      for await (const chunk of readings.scan(deviceId, part)) {
        for (const reading of chunk) {
          const view = viewReading(reading, profile);
          for (const [name, rawValue] of Object.entries(view.raw)) {
            if (wanted && !wanted.has(name)) continue;
            const q = qualityOf(view.reasons[name]);
            buckets.count(reading.timestamp, name, q === 'suspect' ? 1 : 0, q === 'bad' ? 1 : 0);
            if (!keeps(quality, q)) continue;
            const value = values === 'raw' ? rawValue : view.values[name]!;
            buckets.add(reading.timestamp, name, value, value, value, 1, {
              ...(values === 'both' ? { raw: { min: rawValue, max: rawValue, mean: rawValue, count: 1 } } : {}),
              ...(values !== 'raw' ? { cal: view.calibration[name] } : {}),
            });
          }
        }
      }
    };
    if (resolution === 'minute') {
      for (const part of parts) await addReadings(part);
      return { reprocessing: false };
    }
    const periodMs = RESOLUTION_MS[resolution];
    const columns = await rollups(deviceId, resolution, parts[0]!.from, parts[parts.length - 1]!.to);
    if (resolution === 'hour') {
      // Where the environment rolls up hourly (decision 042) the newest hour's roll-up lands a minute after it ends:
      // the hours after the newest rolled-up one, up to the last two, are read from the readings themselves, inside
      // the readable parts only. Where roll-ups follow every batch there is no such hour and nothing more is read.
      const newest = columns.t.reduce((max, start) => Math.max(max, start), Number.NEGATIVE_INFINITY);
      const tailFrom = Math.max(newest + periodMs, Math.floor(at / periodMs) * periodMs - FRESH_TAIL_MS);
      for (const part of parts) {
        if (part.to >= tailFrom) await addReadings({ from: Math.max(part.from, tailFrom), to: part.to });
      }
    }
    let reprocessing = false;
    const shown = columns.t.map((start, i) => {
      if (!periodFits(start, periodMs, parts, at)) return false;
      if (profile.pending.length === 0) return true;
      const { hidden, stale } = staleness(profile, start, periodMs, columns.pv?.[i] ?? 0);
      reprocessing ||= stale;
      return !hidden;
    });
    for (const [name, series] of Object.entries(columns.m)) {
      if (wanted && !wanted.has(name)) continue;
      columns.t.forEach((start, i) => {
        if (!shown[i]) return;
        const corrected = classesAt(series, i);
        if (!corrected.all) return;
        buckets.count(start, name, corrected.s?.count ?? 0, corrected.b?.count ?? 0);
        // A bucket without raw columns had no calibrated value: its raw values are its corrected ones.
        const raw = series.raw && statAt(series.raw, i) ? classesAt(series.raw, i) : corrected;
        const main = kept(values === 'raw' ? raw : corrected, quality);
        if (!main) return;
        const cal = values === 'raw' ? undefined : (series.cal?.[i] ?? undefined);
        buckets.add(start, name, main.min, main.max, main.mean, main.count, {
          ...(values === 'both' ? { raw: kept(raw, quality) } : {}),
          ...(cal ? { cal } : {}),
        });
      });
    }
    return { reprocessing };
  };

export type SeriesPoints = ReturnType<typeof createSeriesPoints>;

/** A measurement's columns with the label and unit a chart shows (a device's declared unit outside the catalogue). */
export const describeColumns = (
  name: string,
  columns: ChartColumns,
  declared: Record<string, string> | undefined,
): MeasurementSeries => {
  const unit = unitOf(name, declared);
  return { label: labelOf(name), ...(unit ? { unit } : {}), ...columns };
};
