import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

const written = (bytes: number, versionId: string | undefined): WrittenFile =>
  versionId && versionId !== 'null' ? { bytes, versionId } : { bytes };

/** S3's smallest part (but the last) of a multipart upload. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** What a closed file became: its size, and the object version S3 gave it (a versioned bucket only). */
export interface WrittenFile {
  bytes: number;
  versionId?: string;
}

/** A file being written: chunks in, one object out. */
export interface FileWriter {
  write: (chunk: string | Uint8Array) => Promise<void>;
  close: () => Promise<WrittenFile>;
  /** Gives up: an unfinished multipart upload is aborted so its parts are not kept (and billed). */
  abort: () => Promise<void>;
}

/**
 * Files written to one bucket (the exports bucket, the datasets bucket). A file is buffered until it reaches a part's
 * size: a small file is one PutObject, a big one a multipart upload whose parts are sent as they fill, so the worker
 * never holds the whole file.
 */
export const createExportFiles = ({
  s3,
  bucket,
  partBytes = MIN_PART_BYTES,
}: {
  s3: S3Client;
  bucket: string;
  /** @default MIN_PART_BYTES (S3 refuses smaller parts, except the last) */
  partBytes?: number;
}) => ({
  bucket,
  open: (key: string, contentType: string): FileWriter => {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number }[] = [];

    const flushPart = async () => {
      if (!uploadId) {
        const created = await s3.send(
          new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
        );
        uploadId = created.UploadId!;
      }
      const body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      const PartNumber = parts.length + 1;
      const { ETag } = await s3.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }),
      );
      parts.push({ ETag: ETag!, PartNumber });
    };

    return {
      write: async (chunk: string | Uint8Array) => {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
        pending.push(bytes);
        pendingBytes += bytes.length;
        total += bytes.length;
        if (pendingBytes >= partBytes) await flushPart();
      },
      close: async () => {
        if (!uploadId) {
          const put = await s3.send(
            new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, Body: Buffer.concat(pending) }),
          );
          return written(total, put.VersionId);
        }
        if (pendingBytes > 0) await flushPart();
        const completed = await s3.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
        return written(total, completed.VersionId);
      },
      abort: async () => {
        if (uploadId) {
          await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
        }
      },
    };
  },
});

export type ExportFiles = ReturnType<typeof createExportFiles>;
