import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import path from 'node:path';
import {
  GetObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ListQueuesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { closeServer, type Emulator, LOCAL_CREDENTIALS, LOCAL_HOST, listen } from './listen';

const credentials = LOCAL_CREDENTIALS;

/** fauxqs keeps everything in memory; these snapshot objects and waiting messages to disk on stop. */
const encodeKey = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
const decodeKey = (name: string) => Buffer.from(name, 'base64url').toString('utf8');
/** A waiting message as saved on stop: its FIFO group goes back with it. */
interface SavedMessage {
  body: string;
  groupId?: string;
}

export interface FauxqsEmulator extends Emulator {
  s3: S3Client;
  sqs: SQSClient;
  createQueue: (name: string, attributes?: Record<string, string>) => { queueUrl: string; queueArn: string };
  /** Puts back what the last stop saved; call after buckets and queues exist. */
  restore: () => Promise<void>;
}

/**
 * fauxqs answers no CORS (no preflight, no Access-Control headers, no PutBucketCors), but the web app PUTs logos
 * to presigned URLs from its own origin, as browsers do to the logo bucket in the cloud. This thin front on the
 * public port answers what that bucket's CORS rule allows (infra/stacks/data-stack.ts: GET, HEAD, PUT, POST,
 * any header, ETag exposed; locally from any origin) and passes every request through unchanged.
 */
const corsFront = (target: number) =>
  createServer((incoming, outgoing) => {
    const origin = incoming.headers.origin;
    const cors = origin
      ? { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'ETag', vary: 'Origin' }
      : {};
    if (incoming.method === 'OPTIONS' && origin && incoming.headers['access-control-request-method']) {
      outgoing.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET, HEAD, PUT, POST',
        'access-control-allow-headers': incoming.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '3600',
      });
      outgoing.end();
      return;
    }
    const upstream = request(
      { host: LOCAL_HOST, port: target, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...cors });
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });

export const startFauxqsEmulator = async ({
  dataDir,
  port,
  region,
}: {
  dataDir: string;
  port: number;
  region: string;
}): Promise<FauxqsEmulator> => {
  const server = await startFauxqs({ port: 0, host: LOCAL_HOST, logger: false, defaultRegion: region });
  const front = corsFront(server.port);
  const url = `http://localhost:${await listen(front, port)}`;
  const s3 = new S3Client({
    region,
    endpoint: url,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const sqs = new SQSClient({ region, endpoint: url, credentials });
  const s3Dir = path.join(dataDir, 's3');
  const sqsDir = path.join(dataDir, 'sqs');

  const snapshot = async () => {
    await rm(s3Dir, { recursive: true, force: true });
    const { Buckets = [] } = await s3.send(new ListBucketsCommand({}));
    for (const bucket of Buckets) {
      const dir = path.join(s3Dir, bucket.Name!);
      await mkdir(dir, { recursive: true });
      let token: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket.Name, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const got = await s3.send(new GetObjectCommand({ Bucket: bucket.Name, Key: object.Key }));
          const bytes = await got.Body!.transformToByteArray();
          await writeFile(path.join(dir, encodeKey(object.Key!)), bytes);
          await writeFile(
            path.join(dir, `${encodeKey(object.Key!)}.meta.json`),
            JSON.stringify({ contentType: got.ContentType, metadata: got.Metadata }),
          );
        }
        token = page.NextContinuationToken;
      } while (token);
    }
    await rm(sqsDir, { recursive: true, force: true });
    await mkdir(sqsDir, { recursive: true });
    const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({}));
    for (const queueUrl of QueueUrls) {
      const name = queueUrl.split('/').pop()!;
      const inspected = server.inspectQueue(name);
      if (!inspected) continue;
      // In-flight first: on a FIFO queue they are the oldest of their group, and the group's order is kept.
      const saved: SavedMessage[] = [
        ...inspected.messages.inflight.map((m) => m.message),
        ...inspected.messages.ready,
        ...inspected.messages.delayed,
      ].map((m) => (m.messageGroupId ? { body: m.body, groupId: m.messageGroupId } : { body: m.body }));
      if (saved.length) await writeFile(path.join(sqsDir, `${name}.json`), JSON.stringify(saved));
    }
  };

  const restore = async () => {
    const buckets = await readdir(s3Dir).catch(() => [] as string[]);
    for (const bucket of buckets) {
      for (const file of await readdir(path.join(s3Dir, bucket))) {
        if (file.endsWith('.meta.json')) continue;
        const meta = JSON.parse(
          await readFile(path.join(s3Dir, bucket, `${file}.meta.json`), 'utf8').catch(() => '{}'),
        ) as { contentType?: string; metadata?: Record<string, string> };
        await s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: decodeKey(file),
            Body: await readFile(path.join(s3Dir, bucket, file)),
            ContentType: meta.contentType,
            Metadata: meta.metadata,
          }),
        );
      }
    }
    for (const file of await readdir(sqsDir).catch(() => [] as string[])) {
      const queue = server.inspectQueue(file.replace(/\.json$/, ''));
      if (!queue) continue;
      for (const saved of JSON.parse(await readFile(path.join(sqsDir, file), 'utf8')) as (SavedMessage | string)[]) {
        // A plain string: a body saved before group ids were kept.
        const { body, groupId } = typeof saved === 'string' ? { body: saved, groupId: undefined } : saved;
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queue.url,
            MessageBody: body,
            ...(groupId ? { MessageGroupId: groupId, MessageDeduplicationId: randomUUID() } : {}),
          }),
        );
      }
    }
    await rm(sqsDir, { recursive: true, force: true });
  };

  return {
    name: 'fauxqs',
    url,
    s3,
    sqs,
    createQueue: (name, attributes) => server.createQueue(name, { region, attributes }),
    restore,
    healthy: async () => {
      await sqs.send(new ListQueuesCommand({}));
      return true;
    },
    stop: async () => {
      await snapshot().catch((error: unknown) => console.error('Could not save S3/SQS state:', error));
      await closeServer(front);
      await server.stop();
    },
  };
};
