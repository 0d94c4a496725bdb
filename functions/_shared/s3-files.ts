import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { create as contentDisposition } from 'content-disposition';
import { inLanes } from './in-lanes';

/** Deletes in flight at once when a prefix is emptied: its objects go in a few round trips, not one each in turn. */
const REMOVE_LANES = 8;

/** S3's answer for an object that is not there: GetObject says NoSuchKey, HeadObject (no body) a bare 404. */
export const isMissing = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

/** An object as a listing shows it. */
export interface ListedObject {
  key: string;
  size: number;
  /** ms */
  lastModified: number;
}

/**
 * The Content-Disposition that makes a browser save a download as `fileName`: RFC 6266 by the field's library, so
 * quotes and backslashes are escaped and a name beyond ASCII travels in `filename*` with an ASCII fallback.
 */
export const attachmentOf = (fileName: string): string => contentDisposition(fileName);

/**
 * The one adapter of a bucket's files: reads that answer undefined for a missing object, writes, every object under a
 * prefix through all listing pages, and presigned URLs for browsers (an upload URL signs the type and length it
 * accepts; a download URL may name the file the browser saves).
 */
export const createS3Files = ({ s3, bucket }: { s3: S3Client; bucket: string }) => {
  const list = async (prefix: string): Promise<ListedObject[]> => {
    const objects: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        objects.push({
          key: object.Key,
          size: object.Size ?? 0,
          lastModified: object.LastModified?.getTime() ?? 0,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects;
  };

  const remove = async (key: string): Promise<void> => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  };

  return {
    bucket,

    /** @returns undefined when there is no such object */
    head: async (key: string): Promise<{ size: number; contentType?: string } | undefined> => {
      try {
        const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: head.ContentLength ?? 0, ...(head.ContentType ? { contentType: head.ContentType } : {}) };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    /**
     * The object's body, streamed (or only the bytes `range` names, e.g. `bytes=0-15`).
     * @returns undefined when there is no such object
     */
    get: async (key: string, { range }: { range?: string } = {}): Promise<GetObjectCommandOutput['Body']> => {
      try {
        return (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) })))
          .Body;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    put: async (
      key: string,
      body: NonNullable<PutObjectCommandInput['Body']>,
      options: Omit<PutObjectCommandInput, 'Bucket' | 'Key' | 'Body'> = {},
    ): Promise<void> => {
      await s3.send(new PutObjectCommand({ ...options, Bucket: bucket, Key: key, Body: body }));
    },

    remove,

    list,

    /** Removes every object under the prefix. @returns how many there were */
    removeAll: async (prefix: string): Promise<number> => {
      const objects = await list(prefix);
      await inLanes(objects, REMOVE_LANES, (object) => remove(object.key));
      return objects.length;
    },

    /** A URL that accepts one PUT of exactly this type and length: both are signed, so S3 refuses any other. */
    uploadUrl: (
      key: string,
      { contentType, size }: { contentType: string; size: number },
      expiresInSeconds: number,
    ): Promise<string> =>
      getSignedUrl(
        s3,
        new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: size }),
        {
          expiresIn: expiresInSeconds,
          signableHeaders: new Set(['content-type', 'content-length']),
        },
      ),

    /**
     * A presigned GET. `fileName`: the browser saves the file under it instead of the key's last part (signed with the
     * URL); `versionId`: that version of the object rather than the current one.
     */
    downloadUrl: (
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
          ...(fileName ? { ResponseContentDisposition: attachmentOf(fileName) } : {}),
        }),
        { expiresIn: expiresInSeconds },
      ),
  };
};

export type S3Files = ReturnType<typeof createS3Files>;
