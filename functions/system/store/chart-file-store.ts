import { DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { CacheFile } from '../../../shared/contracts/system';
import { chartFilesPrefix, parseChartObjectKey } from '../../../shared/sensor-data/chart-files';
import { inLanes } from '../../_shared/in-lanes';
import type { ChartFileStore } from '../domain/cache-files';

/** Deletes in flight at once: a device holds a dozen files a year, so a few lanes finish any eviction quickly. */
const LANES = 8;

/**
 * The chart-data bucket as the cache tools see it: list and delete only (the sensor-data worker writes the files;
 * the system area is granted s3:ListBucket and s3:DeleteObject there, nothing else).
 */
export const createChartFileStore = ({ s3, bucket }: { s3: S3Client; bucket: string }): ChartFileStore => ({
  list: async (deviceId) => {
    const files: CacheFile[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: chartFilesPrefix(deviceId), ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        const parsed = parseChartObjectKey(object.Key);
        files.push({
          key: object.Key,
          resolution: parsed?.resolution ?? null,
          period: parsed?.period ?? null,
          bytes: object.Size ?? 0,
          lastModified: object.LastModified?.getTime() ?? 0,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return files;
  },

  remove: async (keys) => {
    await inLanes(keys, LANES, (key) => s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })));
  },
});
