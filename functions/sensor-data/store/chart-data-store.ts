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

const emptySeries = (length: number): ChartSeries => ({
  min: new Array(length).fill(null),
  max: new Array(length).fill(null),
  mean: new Array(length).fill(null),
  count: new Array(length).fill(null),
});

/**
 * Joins objects (any order) into one set of columns, keeping the buckets that overlap `[fromMs, toMs]`; a
 * measurement missing from an object is null over that object's buckets, one with no value in range is left out.
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
    const series = emptySeries(t.length);
    t.forEach((start, i) => {
      const { object, index } = rows.get(start)!;
      const source = object.m[name];
      if (!source) return;
      series.min[i] = source.min[index] ?? null;
      series.max[i] = source.max[index] ?? null;
      series.mean[i] = source.mean[index] ?? null;
      series.count[i] = source.count[index] ?? null;
    });
    // A measurement with no value in the range is left out, as if the device had never sent it there.
    if (series.count.some((count) => count !== null)) m[name] = series;
  }
  return { t, m };
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
