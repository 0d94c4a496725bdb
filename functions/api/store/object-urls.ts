import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

/** Presigned GETs of objects in the buckets this area may read. */
export const createObjectUrls = ({ s3 }: { s3: S3Client }) => ({
  presign: (
    bucket: string,
    key: string,
    expiresInSeconds: number,
    { fileName, versionId }: { fileName?: string; versionId?: string } = {},
  ): Promise<string> =>
    getSignedUrl(
      s3,
      new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(versionId ? { VersionId: versionId } : {}),
        // Signed with the URL: the browser saves the file under this name instead of the key's last part.
        ...(fileName ? { ResponseContentDisposition: `attachment; filename="${fileName.replace(/["\\]/g, '')}"` } : {}),
      }),
      { expiresIn: expiresInSeconds },
    ),
});
