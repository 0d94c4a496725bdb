import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Files } from '../../_shared/s3-files';
import type { LogoFiles } from '../domain/ports';

/** The logo bucket (organizations-{env}-logofiles): presigned URLs for browsers, and the server's own checks. */
export const createLogoFiles = ({ s3, bucket }: { s3: S3Client; bucket: string }): LogoFiles => {
  const files = createS3Files({ s3, bucket });
  return {
    uploadUrl: (key: string, contentType: string, size: number, expiresInSeconds: number): Promise<string> =>
      files.uploadUrl(key, { contentType, size }, expiresInSeconds),

    readUrl: (key: string, expiresInSeconds: number): Promise<string> => files.downloadUrl(key, expiresInSeconds),

    head: files.head,

    // A ranged GET: a large object is not downloaded to read its signature. Gone since its head: no bytes.
    readStart: async (key: string, bytes: number): Promise<Uint8Array> =>
      (await (await files.get(key, { range: `bytes=0-${bytes - 1}` }))?.transformToByteArray()) ?? new Uint8Array(),

    remove: files.remove,

    // An organization holds a handful of objects at most.
    removeAll: files.removeAll,
  };
};
