import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { LogoFiles } from '../domain/ports';

const isMissing = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'NotFound' ||
    error.name === 'NoSuchKey' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

/** The logo bucket (organizations-{env}-logofiles): presigned URLs for browsers, and the server's own checks. */
export const createLogoFiles = ({ s3, bucket }: { s3: S3Client; bucket: string }): LogoFiles => ({
  uploadUrl: (key: string, contentType: string, size: number, expiresInSeconds: number): Promise<string> =>
    getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: size }),
      {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
      },
    ),

  readUrl: (key: string, expiresInSeconds: number): Promise<string> =>
    getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: expiresInSeconds }),

  head: async (key: string): Promise<{ size: number; contentType?: string } | undefined> => {
    try {
      const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { size: head.ContentLength ?? 0, ...(head.ContentType ? { contentType: head.ContentType } : {}) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },

  readStart: async (key: string, bytes: number): Promise<Uint8Array> => {
    const result = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
    return (await result.Body?.transformToByteArray()) ?? new Uint8Array();
  },

  remove: async (key: string): Promise<void> => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  },

  removeAll: async (prefix: string): Promise<number> => {
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      // An organization holds a handful of objects at most: one request each is enough.
      for (const { Key } of keys) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      removed += keys.length;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  },
});
