import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Files } from '../../_shared/s3-files';

/** Presigned GETs of objects in the buckets this area may read. */
export const createObjectUrls = ({ s3 }: { s3: S3Client }) => ({
  presign: (
    bucket: string,
    key: string,
    expiresInSeconds: number,
    options: { fileName?: string; versionId?: string } = {},
  ): Promise<string> => createS3Files({ s3, bucket }).downloadUrl(key, expiresInSeconds, options),
});
