import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { attachmentOf, createS3Files, isMissing } from './s3-files';

const client = () =>
  new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });

const s3Error = (name: string, status?: number) =>
  Object.assign(new Error(name), { name, ...(status ? { $metadata: { httpStatusCode: status } } : {}) });

describe('isMissing', () => {
  it("is S3's missing object, from a GET (NoSuchKey) or a HEAD (a bare 404), and nothing else", () => {
    expect(isMissing(s3Error('NoSuchKey'))).toBe(true);
    expect(isMissing(s3Error('NotFound'))).toBe(true);
    expect(isMissing(s3Error('UnknownError', 404))).toBe(true);
    expect(isMissing(s3Error('AccessDenied', 403))).toBe(false);
    expect(isMissing(s3Error('NoSuchBucket', 400))).toBe(false);
    expect(isMissing('NoSuchKey')).toBe(false);
  });
});

describe('attachmentOf', () => {
  it('names a plain file as it is (quoted only where the name needs it)', () => {
    expect(attachmentOf('d-1_20261128T000000Z.csv')).toBe('attachment; filename=d-1_20261128T000000Z.csv');
    expect(attachmentOf('my data.csv')).toBe('attachment; filename="my data.csv"');
  });

  it('escapes quotes and backslashes, and carries a name beyond ASCII in filename* with a fallback', () => {
    expect(attachmentOf('say "hi"\\.bin')).toBe('attachment; filename="say \\"hi\\"\\\\.bin"');
    expect(attachmentOf('firmware-ü.bin')).toBe(
      'attachment; filename="firmware-?.bin"; filename*=UTF-8\'\'firmware-%C3%BC.bin',
    );
  });
});

describe('createS3Files', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());
  afterAll(() => s3.restore());
  const files = createS3Files({ s3: client(), bucket: 'b' });

  it('answers undefined for a missing object, on a head and on a get', async () => {
    s3.on(HeadObjectCommand).rejects(s3Error('NotFound', 404));
    s3.on(GetObjectCommand).rejects(s3Error('NoSuchKey', 404));
    expect(await files.head('k')).toBeUndefined();
    expect(await files.get('k')).toBeUndefined();
  });

  it('lets any other failure through', async () => {
    s3.on(HeadObjectCommand).rejects(s3Error('AccessDenied', 403));
    s3.on(GetObjectCommand).rejects(s3Error('SlowDown', 503));
    await expect(files.head('k')).rejects.toThrow('AccessDenied');
    await expect(files.get('k')).rejects.toThrow('SlowDown');
  });

  it('heads an object as its size and type, and gets only the range asked for', async () => {
    s3.on(HeadObjectCommand).resolves({ ContentLength: 12, ContentType: 'image/png' });
    s3.on(GetObjectCommand).resolves({});
    expect(await files.head('k')).toEqual({ size: 12, contentType: 'image/png' });
    await files.get('k', { range: 'bytes=0-15' });
    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'b', Key: 'k', Range: 'bytes=0-15' });
  });

  it('lists every object under a prefix through all pages, and removes them all', async () => {
    s3.on(ListObjectsV2Command)
      .resolvesOnce({
        Contents: [{ Key: 'p/1', Size: 3, LastModified: new Date(1_000) }],
        IsTruncated: true,
        NextContinuationToken: 't1',
      })
      .resolvesOnce({ Contents: [{ Key: 'p/2', Size: 4, LastModified: new Date(2_000) }, {}], IsTruncated: false });
    s3.on(DeleteObjectCommand).resolves({});
    expect(await files.removeAll('p/')).toBe(2);
    expect(s3.commandCalls(ListObjectsV2Command).map((call) => call.args[0].input.ContinuationToken)).toEqual([
      undefined,
      't1',
    ]);
    expect(s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input.Key)).toEqual(['p/1', 'p/2']);
  });

  it('puts a body with the options given, into its own bucket and key whatever the options say', async () => {
    s3.on(PutObjectCommand).resolves({});
    await files.put('k', '{}', { ContentType: 'application/json', Bucket: 'other', Key: 'elsewhere' } as never);
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'b',
      Key: 'k',
      Body: '{}',
      ContentType: 'application/json',
    });
  });

  it('signs a download URL that names the file the browser saves, and the version when asked', async () => {
    const url = new URL(await files.downloadUrl('exports/d/x.csv', 300, { fileName: 'ä "x".csv', versionId: 'v1' }));
    expect(url.pathname).toContain('exports/d/x.csv');
    expect(url.searchParams.get('response-content-disposition')).toBe(attachmentOf('ä "x".csv'));
    expect(url.searchParams.get('versionId')).toBe('v1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    const plain = new URL(await files.downloadUrl('k', 60));
    expect(plain.searchParams.has('response-content-disposition')).toBe(false);
  });

  it('signs an upload URL for exactly one type and length', async () => {
    const url = new URL(await files.uploadUrl('k', { contentType: 'image/png', size: 12 }, 60));
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host']),
    );
  });
});
