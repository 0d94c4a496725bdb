import type { TimeRange } from '../../../shared/campaigns/window';
import type { MeasurementSeries, SeriesResolution } from '../../../shared/contracts/sensor-data-readings';
import { labelOf, unitOf } from '../../../shared/sensor-data/measurements';
import type { ReadingsStore } from '../../_shared/sensor-data/readings-store';
import { type ChartColumns, type createBuckets, periodFits, RESOLUTION_MS } from './downsample';

/** A resolution's roll-ups over a range, columnar (the chart-data objects the roll-up worker writes, merged). */
export interface RollupColumns {
  t: number[];
  m: Record<
    string,
    { min: (number | null)[]; max: (number | null)[]; mean: (number | null)[]; count: (number | null)[] }
  >;
}

/** Reads the hourly or daily roll-ups that overlap `[from, to]`. */
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

/**
 * Puts one device's points over its readable parts into chart buckets: the raw readings at minute resolution, else
 * the hourly or daily roll-ups, of which only periods wholly inside a readable part count (periodFits), with the
 * newest hours not yet rolled up read from the readings. One code path for a device's own chart and a campaign's
 * comparison, so both show exactly what the gate lets through.
 */
export const createSeriesPoints =
  ({ readings, rollups }: SeriesPointsDeps) =>
  async (
    buckets: Pick<ReturnType<typeof createBuckets>, 'add'>,
    deviceId: string,
    resolution: SeriesResolution,
    parts: readonly TimeRange[],
    wanted: ReadonlySet<string> | undefined,
    at: number,
  ): Promise<void> => {
    if (parts.length === 0) return;
    const addReadings = async (part: TimeRange) => {
      for await (const chunk of readings.scan(deviceId, part)) {
        for (const reading of chunk) {
          for (const [name, value] of Object.entries(reading.values)) {
            if (!wanted || wanted.has(name)) buckets.add(reading.timestamp, name, value, value, value);
          }
        }
      }
    };
    if (resolution === 'minute') {
      for (const part of parts) await addReadings(part);
      return;
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
    const fits = columns.t.map((start) => periodFits(start, periodMs, parts, at));
    for (const [name, column] of Object.entries(columns.m)) {
      if (wanted && !wanted.has(name)) continue;
      columns.t.forEach((start, i) => {
        const mean = column.mean[i];
        if (!fits[i] || mean === null || mean === undefined) return;
        buckets.add(start, name, column.min[i] ?? mean, column.max[i] ?? mean, mean, column.count[i] ?? 1);
      });
    }
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
