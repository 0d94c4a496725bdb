import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import path from 'node:path';
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ListQueuesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { closeServer, type Emulator, LOCAL_CREDENTIALS, LOCAL_HOST, listen } from './listen';

const credentials = LOCAL_CREDENTIALS;

/**
 * fauxqs keeps everything in memory. Every change a client makes through the public port is written through to disk
 * before the client gets its answer (issue 19: a kill -9 lost every object and waiting message): an object's bytes
 * and metadata, and a queue's waiting and in-flight messages. A start puts them back.
 */
const encodeKey = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
const decodeKey = (name: string) => Buffer.from(name, 'base64url').toString('utf8');
/** A waiting message as saved: its FIFO group goes back with it. */
interface SavedMessage {
  body: string;
  groupId?: string;
}

export interface FauxqsEmulator extends Emulator {
  s3: S3Client;
  sqs: SQSClient;
  createQueue: (name: string, attributes?: Record<string, string>) => { queueUrl: string; queueArn: string };
  /** Puts back what was written through; call once buckets and queues exist, before anything else changes them. */
  restore: () => Promise<void>;
}

/** What a request through the public port changed, for the write-through; undefined for reads. */
type Change =
  | { kind: 'queue'; name: string }
  | { kind: 'object'; bucket: string; key: string }
  | { kind: 'bucket'; bucket: string };

const SQS_WRITES = new Set(['SendMessage', 'SendMessageBatch', 'DeleteMessage', 'DeleteMessageBatch', 'PurgeQueue']);

/** The change a request makes, read from its method, path and (for SQS) its action and queue URL. */
export const changeOf = (
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Change | undefined => {
  const target = headers['x-amz-target'];
  const form = /x-www-form-urlencoded/.test(headers['content-type'] ?? '')
    ? new URLSearchParams(body.toString('utf8'))
    : undefined;
  const action =
    typeof target === 'string' && target.startsWith('AmazonSQS.')
      ? target.slice('AmazonSQS.'.length)
      : form?.get('Action');
  if (action) {
    if (!SQS_WRITES.has(action)) return undefined;
    let queueUrl: unknown = form?.get('QueueUrl');
    if (!form) {
      try {
        queueUrl = (JSON.parse(body.toString('utf8')) as { QueueUrl?: unknown }).QueueUrl;
      } catch {
        return undefined;
      }
    }
    return typeof queueUrl === 'string' ? { kind: 'queue', name: queueUrl.split('/').pop()! } : undefined;
  }
  const { pathname, searchParams } = new URL(url, 'http://local');
  const [, bucket = '', ...rest] = pathname.split('/');
  const key = rest.map((part) => decodeURIComponent(part)).join('/');
  if (!bucket) return undefined;
  if (method === 'POST' && searchParams.has('delete')) return { kind: 'bucket', bucket };
  if (!key || searchParams.has('partNumber') || searchParams.has('uploads')) return undefined;
  if (method === 'PUT' || method === 'DELETE')
    return searchParams.has('uploadId') ? undefined : { kind: 'object', bucket, key };
  if (method === 'POST' && searchParams.has('uploadId')) return { kind: 'object', bucket, key };
  return undefined;
};

/** The headers a GET may ask S3 to answer with (`response-content-disposition` names a presigned download's file). */
const RESPONSE_OVERRIDES = [
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-type',
  'expires',
] as const;

/** What a GET's `response-*` parameters ask S3 to answer with, which fauxqs ignores. */
const overridesOf = (method: string | undefined, url: string | undefined): Record<string, string> => {
  if (method !== 'GET' || !url) return {};
  const { searchParams } = new URL(url, 'http://local');
  return Object.fromEntries(
    RESPONSE_OVERRIDES.flatMap((name) => {
      const value = searchParams.get(`response-${name}`);
      return value ? [[name, value]] : [];
    }),
  );
};

/**
 * fauxqs answers no CORS (no preflight, no Access-Control headers, no PutBucketCors), but the web app PUTs logos
 * to presigned URLs from its own origin, as browsers do to the logo bucket in the cloud. This thin front on the
 * public port answers what that bucket's CORS rule allows (infra/stacks/data-stack.ts: GET, HEAD, PUT, POST,
 * any header, ETag exposed; locally from any origin) and passes every request through unchanged; a change it
 * passes is written to disk (`persist`) before its answer goes back. A GET's answer carries the headers its
 * `response-*` parameters ask for, as S3's does.
 */
const corsFront = (target: number, persist: (change: Change) => Promise<void>) =>
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
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const change = changeOf(incoming.method ?? 'GET', incoming.url ?? '/', incoming.headers, body);
      const upstream = request(
        { host: LOCAL_HOST, port: target, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          const status = answer.statusCode ?? 502;
          if (!change || status >= 300) {
            const overrides = status < 300 ? overridesOf(incoming.method, incoming.url) : {};
            outgoing.writeHead(status, { ...answer.headers, ...overrides, ...cors });
            answer.pipe(outgoing);
            return;
          }
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => {
            persist(change).then(
              () => {
                outgoing.writeHead(status, { ...answer.headers, ...cors });
                outgoing.end(Buffer.concat(parts));
              },
              (error: unknown) => {
                // Not on disk: the change is not acknowledged, so the client retries it.
                console.error('Could not write S3/SQS state through:', error);
                outgoing.writeHead(500, cors).end();
              },
            );
          });
        },
      );
      upstream.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end();
      });
      upstream.end(body);
    });
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
  // The write-through and the restore talk to fauxqs itself, behind the front, so neither passes through it again.
  const inside = `http://${LOCAL_HOST}:${server.port}`;
  const s3Inside = new S3Client({
    region,
    endpoint: inside,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const sqsInside = new SQSClient({ region, endpoint: inside, credentials });
  const s3Dir = path.join(dataDir, 's3');
  const sqsDir = path.join(dataDir, 'sqs');

  /** A file replaced whole, so a kill -9 mid-write leaves the old content or the new, never half of one. */
  const replaceFile = async (file: string, content: string | Uint8Array) => {
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, content);
    await rename(temporary, file);
  };

  const saveObject = async (bucket: string, key: string) => {
    const file = path.join(s3Dir, bucket, encodeKey(key));
    let got: GetObjectCommandOutput;
    try {
      got = await s3Inside.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
      await rm(file, { force: true });
      await rm(`${file}.meta.json`, { force: true });
      return;
    }
    const bytes = await got.Body!.transformToByteArray();
    // The metadata first: an object whose bytes are on disk is always put back with its type.
    await replaceFile(`${file}.meta.json`, JSON.stringify({ contentType: got.ContentType, metadata: got.Metadata }));
    await replaceFile(file, bytes);
  };

  const saveBucket = async (bucket: string) => {
    const keys = new Set<string>();
    let token: string | undefined;
    do {
      const page = await s3Inside.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) keys.add(object.Key!);
      token = page.NextContinuationToken;
    } while (token);
    const files = await readdir(path.join(s3Dir, bucket)).catch(() => [] as string[]);
    for (const file of files.filter((f) => !f.endsWith('.meta.json') && !f.endsWith('.tmp'))) {
      if (!keys.has(decodeKey(file))) await saveObject(bucket, decodeKey(file));
    }
    for (const key of keys) await saveObject(bucket, key);
  };

  const saveQueue = async (name: string) => {
    const inspected = server.inspectQueue(name);
    if (!inspected) return;
    // In-flight first: on a FIFO queue they are the oldest of their group, and the group's order is kept.
    const saved: SavedMessage[] = [
      ...inspected.messages.inflight.map((m) => m.message),
      ...inspected.messages.ready,
      ...inspected.messages.delayed,
    ].map((m) => (m.messageGroupId ? { body: m.body, groupId: m.messageGroupId } : { body: m.body }));
    const file = path.join(sqsDir, `${name}.json`);
    if (saved.length) await replaceFile(file, JSON.stringify(saved));
    else await rm(file, { force: true });
  };

  /** A queue and its dead-letter queue: a receive past the limit moves a message from one to the other. */
  const saveQueueAndDeadLetters = async (name: string) => {
    await saveQueue(name);
    const redrive = server.inspectQueue(name)?.attributes.RedrivePolicy;
    const target = redrive ? (JSON.parse(redrive) as { deadLetterTargetArn?: string }).deadLetterTargetArn : undefined;
    if (target) await saveQueue(target.split(':').pop()!);
  };

  // One write at a time per queue or object, in the order the changes were answered by fauxqs.
  const chains = new Map<string, Promise<void>>();
  const persist = (change: Change): Promise<void> => {
    const id = change.kind === 'queue' ? `q:${change.name}` : `s3:${change.bucket}`;
    const run = () =>
      change.kind === 'queue'
        ? saveQueueAndDeadLetters(change.name)
        : change.kind === 'object'
          ? saveObject(change.bucket, change.key)
          : saveBucket(change.bucket);
    const next = (chains.get(id) ?? Promise.resolve()).then(run, run);
    chains.set(id, next);
    return next;
  };

  const front = corsFront(server.port, persist);
  const url = `http://localhost:${await listen(front, port)}`;
  const s3 = new S3Client({
    region,
    endpoint: url,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const sqs = new SQSClient({ region, endpoint: url, credentials });

  const restore = async () => {
    const buckets = await readdir(s3Dir).catch(() => [] as string[]);
    for (const bucket of buckets) {
      for (const file of await readdir(path.join(s3Dir, bucket))) {
        if (file.endsWith('.meta.json') || file.endsWith('.tmp')) continue;
        const meta = JSON.parse(
          await readFile(path.join(s3Dir, bucket, `${file}.meta.json`), 'utf8').catch(() => '{}'),
        ) as { contentType?: string; metadata?: Record<string, string> };
        await s3Inside.send(
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
      if (!file.endsWith('.json')) continue;
      const queue = server.inspectQueue(file.replace(/\.json$/, ''));
      if (!queue) continue;
      for (const saved of JSON.parse(await readFile(path.join(sqsDir, file), 'utf8')) as (SavedMessage | string)[]) {
        // A plain string: a body saved before group ids were kept.
        const { body, groupId } = typeof saved === 'string' ? { body: saved, groupId: undefined } : saved;
        await sqsInside.send(
          new SendMessageCommand({
            QueueUrl: queue.url,
            MessageBody: body,
            ...(groupId ? { MessageGroupId: groupId, MessageDeduplicationId: randomUUID() } : {}),
          }),
        );
      }
    }
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
      // Everything acknowledged is on disk already; what is still being written finishes first.
      await Promise.allSettled(chains.values());
      await closeServer(front);
      await server.stop();
    },
  };
};
