import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { createExportFiles } from './export-files';

describe('the files adapter', () => {
  const s3 = mockClient(S3Client);
  const files = createExportFiles({ s3: new S3Client({ region: 'us-west-2' }), bucket: 'exports-b', partBytes: 10 });

  beforeEach(() => {
    s3.reset();
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
    s3.on(UploadPartCommand).callsFake((input: { PartNumber: number }) => ({ ETag: `"e${input.PartNumber}"` }));
    // An unversioned bucket answers the version "null", which names no version.
    s3.on(PutObjectCommand).resolves({ VersionId: 'null' });
    s3.on(CompleteMultipartUploadCommand).resolves({ VersionId: 'v-2' });
  });
  afterAll(() => s3.restore());

  it('writes a small file with one PutObject', async () => {
    const file = files.open('exports/d/x.csv', 'text/csv');
    await file.write('a,b\r\n');
    expect(await file.close()).toEqual({ bytes: 5 });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({
      Bucket: 'exports-b',
      Key: 'exports/d/x.csv',
      ContentType: 'text/csv',
    });
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('sends a big file in parts as they fill, the rest as the last part, and completes them in order', async () => {
    const file = files.open('exports/d/y.csv', 'text/csv');
    await file.write('0123456789AB');
    // The first part went out before the file was closed: nothing waits for the whole file.
    expect(s3.commandCalls(UploadPartCommand)).toHaveLength(1);
    await file.write('xyz');
    expect(await file.close()).toEqual({ bytes: 15, versionId: 'v-2' });
    const parts = s3.commandCalls(UploadPartCommand).map((call) => call.args[0].input);
    expect(parts.map((p) => [p.PartNumber, Buffer.from(p.Body as Buffer).toString()])).toEqual([
      [1, '0123456789AB'],
      [2, 'xyz'],
    ]);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      UploadId: 'up-1',
      MultipartUpload: {
        Parts: [
          { ETag: '"e1"', PartNumber: 1 },
          { ETag: '"e2"', PartNumber: 2 },
        ],
      },
    });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('aborts an unfinished multipart upload, and has nothing to abort before the first part', async () => {
    const small = files.open('exports/d/z.csv', 'text/csv');
    await small.write('abc');
    await small.abort();
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);

    const big = files.open('exports/d/w.csv', 'text/csv');
    await big.write('0123456789');
    await big.abort();
    expect(s3.commandCalls(AbortMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'exports-b',
      Key: 'exports/d/w.csv',
      UploadId: 'up-1',
    });
  });
});
