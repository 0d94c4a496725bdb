import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Files } from '../../_shared/s3-files';
import type { ArtifactFiles } from '../domain/ports';

/** The releases bucket (code-releases-{env}-artifacts): presigned URLs for browsers, and the server's own checks. */
export const createArtifactFiles = ({ s3, bucket }: { s3: S3Client; bucket: string }): ArtifactFiles => {
  const files = createS3Files({ s3, bucket });
  return {
    uploadUrl: (key: string, size: number, expiresInSeconds: number): Promise<string> =>
      files.uploadUrl(key, { contentType: 'application/octet-stream', size }, expiresInSeconds),

    readUrl: (key: string, fileName: string, expiresInSeconds: number): Promise<string> =>
      files.downloadUrl(key, expiresInSeconds, { fileName }),

    size: async (key: string): Promise<number | undefined> => (await files.head(key))?.size,

    sha256: async (key: string): Promise<string> => {
      const body = await files.get(key);
      if (!body) throw new Error(`The artifact ${key} is gone`);
      const hash = createHash('sha256');
      for await (const chunk of body as AsyncIterable<Uint8Array>) hash.update(chunk);
      return hash.digest('hex');
    },

    remove: files.remove,

    removeAll: async (prefix: string): Promise<void> => {
      await files.removeAll(prefix);
    },
  };
};
