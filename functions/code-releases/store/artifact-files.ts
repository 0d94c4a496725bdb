import { createHash } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ArtifactFiles } from '../domain/ports';

const isMissing = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'NotFound' ||
    error.name === 'NoSuchKey' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

/** The releases bucket (code-releases-{env}-artifacts): presigned URLs for browsers, and the server's own checks. */
export const createArtifactFiles = ({ s3, bucket }: { s3: S3Client; bucket: string }): ArtifactFiles => ({
  uploadUrl: (key: string, size: number, expiresInSeconds: number): Promise<string> =>
    getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: 'application/octet-stream', ContentLength: size }),
      { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-type', 'content-length']) },
    ),

  readUrl: (key: string, fileName: string, expiresInSeconds: number): Promise<string> =>
    getSignedUrl(
      s3,
      new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentDisposition: `attachment; filename="${fileName.replace(/["\\]/g, '_')}"`,
      }),
      { expiresIn: expiresInSeconds },
    ),

  size: async (key: string): Promise<number | undefined> => {
    try {
      return (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },

  sha256: async (key: string): Promise<string> => {
    const result = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const hash = createHash('sha256');
    for await (const chunk of result.Body as AsyncIterable<Uint8Array>) hash.update(chunk);
    return hash.digest('hex');
  },

  remove: async (key: string): Promise<void> => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  },

  removeAll: async (prefix: string): Promise<void> => {
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  },
});
