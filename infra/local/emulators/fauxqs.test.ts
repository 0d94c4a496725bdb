import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { changeOf, startFauxqsEmulator } from './fauxqs';

describe('the fauxqs emulator across a restart', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fauxqs-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('puts waiting FIFO messages back with their groups, in order, and plain ones as they were', async () => {
    const start = async () => {
      const emulator = await startFauxqsEmulator({ dataDir, port: 0, region: 'us-west-2' });
      const fifo = emulator.createQueue('work.fifo', { FifoQueue: 'true' }).queueUrl;
      const plain = emulator.createQueue('plain').queueUrl;
      return { emulator, fifo, plain };
    };

    const first = await start();
    for (const [body, group] of [
      ['a1', 'device:a'],
      ['b1', 'device:b'],
      ['a2', 'device:a'],
    ] as const) {
      await first.emulator.sqs.send(
        new SendMessageCommand({
          QueueUrl: first.fifo,
          MessageBody: body,
          MessageGroupId: group,
          MessageDeduplicationId: body,
        }),
      );
    }
    await first.emulator.sqs.send(new SendMessageCommand({ QueueUrl: first.plain, MessageBody: 'p1' }));
    await first.emulator.stop();

    const second = await start();
    try {
      await second.emulator.restore();
      const received: [string | undefined, string | undefined][] = [];
      for (;;) {
        const { Messages = [] } = await second.emulator.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: second.fifo,
            MaxNumberOfMessages: 10,
            MessageSystemAttributeNames: ['MessageGroupId'],
          }),
        );
        if (!Messages.length) break;
        for (const m of Messages) {
          received.push([m.Body, m.Attributes?.MessageGroupId]);
          await second.emulator.sqs.send(
            new DeleteMessageCommand({ QueueUrl: second.fifo, ReceiptHandle: m.ReceiptHandle }),
          );
        }
      }
      expect(received.filter(([, group]) => group === 'device:a')).toEqual([
        ['a1', 'device:a'],
        ['a2', 'device:a'],
      ]);
      expect(received.filter(([, group]) => group === 'device:b')).toEqual([['b1', 'device:b']]);
      const plain = await second.emulator.sqs.send(new ReceiveMessageCommand({ QueueUrl: second.plain }));
      expect(plain.Messages?.map((m) => m.Body)).toEqual(['p1']);
    } finally {
      await second.emulator.stop();
    }
  });
});

describe('the fauxqs emulator after a crash', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fauxqs-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('has every acknowledged object and waiting message on disk, with no stop to save them', async () => {
    const start = async () => {
      const emulator = await startFauxqsEmulator({ dataDir, port: 0, region: 'us-west-2' });
      await emulator.s3.send(new CreateBucketCommand({ Bucket: 'charts' }));
      return { emulator, queue: emulator.createQueue('jobs').queueUrl };
    };
    const crashed = await start();
    const { s3, sqs } = crashed.emulator;
    await s3.send(
      new PutObjectCommand({ Bucket: 'charts', Key: 'a/b c.json', Body: '{"a":1}', ContentType: 'application/json' }),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'charts', Key: 'gone.json', Body: 'x' }));
    await s3.send(new DeleteObjectCommand({ Bucket: 'charts', Key: 'gone.json' }));
    for (const body of ['m1', 'm2', 'm3'])
      await sqs.send(new SendMessageCommand({ QueueUrl: crashed.queue, MessageBody: body }));
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: crashed.queue, MaxNumberOfMessages: 1 }),
    );
    await sqs.send(new DeleteMessageCommand({ QueueUrl: crashed.queue, ReceiptHandle: Messages[0]!.ReceiptHandle }));

    // The first never stops (as after kill -9): the second starts from what is on disk.
    const second = await start();
    try {
      await second.emulator.restore();
      const object = await second.emulator.s3.send(new GetObjectCommand({ Bucket: 'charts', Key: 'a/b c.json' }));
      expect([await object.Body!.transformToString(), object.ContentType]).toEqual(['{"a":1}', 'application/json']);
      await expect(
        second.emulator.s3.send(new GetObjectCommand({ Bucket: 'charts', Key: 'gone.json' })),
      ).rejects.toMatchObject({ name: 'NoSuchKey' });
      const waiting = await second.emulator.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: second.queue, MaxNumberOfMessages: 10 }),
      );
      expect(waiting.Messages?.map((m) => m.Body).sort()).toEqual(
        ['m1', 'm2', 'm3'].filter((body) => body !== Messages[0]!.Body),
      );
    } finally {
      await second.emulator.stop();
      await crashed.emulator.stop();
    }
  });

  it('tells the changes a request makes from the reads', () => {
    const none = Buffer.alloc(0);
    const json = (body: object) => Buffer.from(JSON.stringify(body));
    const sqs = (action: string) => ({
      'x-amz-target': `AmazonSQS.${action}`,
      'content-type': 'application/x-amz-json-1.0',
    });
    expect(changeOf('POST', '/', sqs('SendMessage'), json({ QueueUrl: 'http://x/000/jobs' }))).toEqual({
      kind: 'queue',
      name: 'jobs',
    });
    expect(changeOf('POST', '/', sqs('DeleteMessageBatch'), json({ QueueUrl: 'http://x/000/q.fifo' }))).toEqual({
      kind: 'queue',
      name: 'q.fifo',
    });
    expect(changeOf('POST', '/', sqs('ReceiveMessage'), json({ QueueUrl: 'http://x/000/jobs' }))).toBeUndefined();
    expect(
      changeOf(
        'POST',
        '/',
        { 'content-type': 'application/x-www-form-urlencoded' },
        Buffer.from('Action=SendMessage&QueueUrl=http%3A%2F%2Fx%2F000%2Fjobs'),
      ),
    ).toEqual({ kind: 'queue', name: 'jobs' });
    expect(changeOf('PUT', '/b/k%20ey/x.json', {}, none)).toEqual({ kind: 'object', bucket: 'b', key: 'k ey/x.json' });
    expect(changeOf('DELETE', '/b/k', {}, none)).toEqual({ kind: 'object', bucket: 'b', key: 'k' });
    expect(changeOf('POST', '/b/k?uploadId=1', {}, none)).toEqual({ kind: 'object', bucket: 'b', key: 'k' });
    expect(changeOf('PUT', '/b/k?partNumber=1&uploadId=1', {}, none)).toBeUndefined();
    expect(changeOf('POST', '/b/k?uploads', {}, none)).toBeUndefined();
    expect(changeOf('POST', '/b?delete', {}, none)).toEqual({ kind: 'bucket', bucket: 'b' });
    expect(changeOf('PUT', '/b', {}, none)).toBeUndefined();
    expect(changeOf('GET', '/b/k', {}, none)).toBeUndefined();
  });
});

describe('the fauxqs emulator as S3', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fauxqs-overrides-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("answers a GET's response-* parameters with those headers, as S3 does (a presigned download's file name)", async () => {
    const emulator = await startFauxqsEmulator({ dataDir, port: 0, region: 'us-west-2' });
    try {
      await emulator.s3.send(new CreateBucketCommand({ Bucket: 'exports' }));
      await emulator.s3.send(
        new PutObjectCommand({ Bucket: 'exports', Key: 'x.csv', Body: 'a\r\n', ContentType: 'text/csv' }),
      );
      const named = await emulator.s3.send(
        new GetObjectCommand({
          Bucket: 'exports',
          Key: 'x.csv',
          ResponseContentDisposition: 'attachment; filename="d 1.csv"',
          ResponseCacheControl: 'no-store',
        }),
      );
      expect([named.ContentDisposition, named.CacheControl, named.ContentType]).toEqual([
        'attachment; filename="d 1.csv"',
        'no-store',
        'text/csv',
      ]);
      const plain = await emulator.s3.send(new GetObjectCommand({ Bucket: 'exports', Key: 'x.csv' }));
      expect(plain.ContentDisposition).toBeUndefined();
    } finally {
      await emulator.stop();
    }
  });
});
