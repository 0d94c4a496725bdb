import { Duration } from 'aws-cdk-lib';
import type { LifecycleRule } from 'aws-cdk-lib/aws-s3';

/** Days after which S3 gives up an unfinished multipart upload (its parts are billed and invisible until then). */
export const ABORT_INCOMPLETE_UPLOADS_DAYS = 7;

/** How a bucket's objects and their versions age (docs/decisions/026-least-privilege-and-data-protection.md). */
export interface BucketAging {
  /** Whether overwritten and deleted objects are kept as earlier versions. */
  versioned: boolean;
  /** Earlier versions are deleted this many days after they stop being current; omitted: kept for good (an archive). */
  noncurrentVersionDays?: number;
  /** Objects are deleted this many days after creation. */
  expireAfterDays?: number;
  /** @default ABORT_INCOMPLETE_UPLOADS_DAYS */
  abortIncompleteUploadsAfterDays?: number;
}

/** The one lifecycle rule of a bucket that holds data: unfinished uploads go, earlier versions age out. */
export const lifecycleRules = (aging: BucketAging): LifecycleRule[] => {
  if (!aging.versioned && aging.noncurrentVersionDays !== undefined) {
    throw new Error('Only a versioned bucket has earlier versions to expire');
  }
  return [
    {
      abortIncompleteMultipartUploadAfter: Duration.days(
        aging.abortIncompleteUploadsAfterDays ?? ABORT_INCOMPLETE_UPLOADS_DAYS,
      ),
      ...(aging.noncurrentVersionDays !== undefined
        ? { noncurrentVersionExpiration: Duration.days(aging.noncurrentVersionDays) }
        : {}),
      ...(aging.expireAfterDays !== undefined
        ? { expiration: Duration.days(aging.expireAfterDays) }
        : // With an expiration S3 removes a delete marker left alone by itself; without one it needs telling.
          aging.versioned && aging.noncurrentVersionDays !== undefined
          ? { expiredObjectDeleteMarker: true }
          : {}),
    },
  ];
};
