import type { S3Client } from '@aws-sdk/client-s3';
import { chartFilesPrefix, parseChartObjectKey } from '../../../shared/sensor-data/chart-files';
import { inLanes } from '../../_shared/in-lanes';
import { createS3Files } from '../../_shared/s3-files';
import type { ChartFileStore } from '../domain/cache-files';

/** Deletes in flight at once: a device holds a dozen files a year, so a few lanes finish any eviction quickly. */
const LANES = 8;

/**
 * The chart-data bucket as the cache tools see it: list and delete only (the sensor-data worker writes the files;
 * the system area is granted s3:ListBucket and s3:DeleteObject there, nothing else).
 */
export const createChartFileStore = ({ s3, bucket }: { s3: S3Client; bucket: string }): ChartFileStore => {
  const files = createS3Files({ s3, bucket });
  return {
    list: async (deviceId) =>
      (await files.list(chartFilesPrefix(deviceId))).map(({ key, size, lastModified }) => {
        const parsed = parseChartObjectKey(key);
        return {
          key,
          resolution: parsed?.resolution ?? null,
          period: parsed?.period ?? null,
          bytes: size,
          lastModified,
        };
      }),

    remove: async (keys) => {
      await inLanes(keys, LANES, files.remove);
    },
  };
};
