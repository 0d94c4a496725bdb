import type { S3Client } from '@aws-sdk/client-s3';
import {
  bucketSize,
  type ChartResolution,
  chartObjectKey,
  periodsBetween,
} from '../../../shared/sensor-data/chart-files';
import { createS3Files } from '../../_shared/s3-files';
import type { ChartColumns, ChartDataStore, ChartObject, ChartSeries } from '../domain/ports';

export {
  bucketSize,
  type ChartResolution,
  chartObjectKey,
  DAY_MS,
  HOUR_MS,
  periodOf,
  periodRange,
  periodsBetween,
} from '../../../shared/sensor-data/chart-files';

type Column = (number | null)[];

/** Every column of a measurement's series, by its path (`min`, `q.g.mean`, `raw.count`, `cal`, …). */
const columnsOf = (series: object, prefix = ''): [string, Column][] =>
  Object.entries(series).flatMap(([key, value]): [string, Column][] =>
    Array.isArray(value) ? [[`${prefix}${key}`, value as Column]] : columnsOf(value as object, `${prefix}${key}.`),
  );

const columnAt = (series: object, path: string): Column | undefined => {
  let node: unknown = series;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(node) ? (node as Column) : undefined;
};

const setColumn = (into: Record<string, unknown>, path: string, column: Column) => {
  const keys = path.split('.');
  let node = into;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = column;
};

/**
 * Joins objects (any order) into one set of columns, keeping the buckets that overlap `[fromMs, toMs]`; a
 * measurement missing from an object is null over that object's buckets, one with no value in range is left out, and
 * every column one object has (a quality split, raw values) is null over the buckets of another that lacks it.
 */
export const mergeChartObjects = (
  objects: readonly ChartColumns[],
  resolution: ChartResolution,
  fromMs: number,
  toMs: number,
): ChartColumns => {
  const size = bucketSize(resolution);
  const rows = new Map<number, { object: ChartColumns; index: number }>();
  for (const object of objects) {
    object.t.forEach((start, index) => {
      if (start + size > fromMs && start <= toMs) rows.set(start, { object, index });
    });
  }
  const t = [...rows.keys()].sort((a, b) => a - b);
  const names = new Set(objects.flatMap((object) => Object.keys(object.m)));
  const m: Record<string, ChartSeries> = {};
  for (const name of [...names].sort()) {
    const paths = new Set(
      objects.flatMap((object) => (object.m[name] ? columnsOf(object.m[name]!).map(([path]) => path) : [])),
    );
    const series: Record<string, unknown> = {};
    for (const path of paths) {
      setColumn(
        series,
        path,
        t.map((start) => {
          const { object, index } = rows.get(start)!;
          const source = object.m[name];
          return (source && columnAt(source, path)?.[index]) ?? null;
        }),
      );
    }
    // A measurement with no value in the range is left out, as if the device had never sent it there.
    if ((series.count as Column | undefined)?.some((count) => count !== null))
      m[name] = series as unknown as ChartSeries;
  }
  const merged: ChartColumns = { t, m };
  if (objects.some((object) => object.pv)) {
    merged.pv = t.map((start) => {
      const { object, index } = rows.get(start)!;
      return object.pv?.[index] ?? 0;
    });
  }
  return merged;
};

/** The chart-data bucket (CHART_DATA_BUCKET): the roll-up worker writes the objects, the chart reads take them. */
export const createChartDataStore = ({ s3, bucket }: { s3: S3Client; bucket: string }): ChartDataStore => {
  const files = createS3Files({ s3, bucket });
  const read = async (
    deviceId: string,
    resolution: ChartResolution,
    period: string,
  ): Promise<ChartObject | undefined> => {
    const text = await (await files.get(chartObjectKey(deviceId, resolution, period)))?.transformToString('utf8');
    return text ? (JSON.parse(text) as ChartObject) : undefined;
  };

  return {
    read,

    write: async (object: ChartObject): Promise<void> => {
      await files.put(chartObjectKey(object.deviceId, object.resolution, object.period), JSON.stringify(object), {
        ContentType: 'application/json',
      });
    },

    readChartObjects: async (
      deviceId: string,
      resolution: ChartResolution,
      fromMs: number,
      toMs: number,
    ): Promise<ChartColumns> => {
      const objects = await Promise.all(
        periodsBetween(resolution, fromMs, toMs).map((period) => read(deviceId, resolution, period)),
      );
      return mergeChartObjects(
        objects.filter((o): o is ChartObject => o !== undefined),
        resolution,
        fromMs,
        toMs,
      );
    },
  };
};
