import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context, SQSEvent } from 'aws-lambda';
import { DEPENDENCY_RETRY_AFTER_SECONDS, DEPENDENCY_UNAVAILABLE } from '../../../functions/_shared/http/http-errors';
import { MAX_RECEIVES } from '../../../functions/_shared/queue/max-receives';
import { createReadingsStore, type StoredReading } from '../../../functions/_shared/sensor-data/readings-store';
import { type PrepareMessage, prepareGroupOf } from '../../../functions/code-releases/domain/prepare-message';
import { type SqsHandler, startSqsPoller } from '../../../infra/local/sqs-poller';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import type { JobsMessage } from '../../../shared/contracts/events';
import { preparingRollout, seedFleet, seedRelease } from '../../support/code-releases';
import { fetchDatasetFile, manifestFile, sha256, waitForDataset } from '../../support/datasets';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy';
import { mailTo } from '../../support/mail';
import { sendingNotification } from '../../support/notifications';
import { type FreshUser, freshUser } from '../../support/people';
import {
  ownQueue as createOwnQueue,
  deleteOwnQueue,
  type OwnQueue,
  startWorkerProcess,
  untilQueueEmpty,
  waitingIn as waitingInQueue,
} from '../../support/queues';
import { chartObject, freshDevice, ingest, setTier, storedRollups } from '../../support/sensor-data';
import { apiAs, documentClient, sqsClient, stack, tokenOf, uniqueId } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';

/**
 * Issue 19, faults: queue work is idempotent and nothing is lost when a worker fails. The real worker handlers behind
 * the local stack's own poller (infra/local/sqs-poller.ts), their SDK clients pointed through a fault proxy at the
 * emulators (test/support/fault-proxy.ts), on queues of this file's own with a visibility timeout of seconds (the
 * stack's are minutes), so a retry comes back within the test and no message of the shared stack is disturbed.
 * Out-of-order and resent readings, and repeated dataset build messages, go through the stack's own queues and workers.
 */

const rootDir = path.resolve(import.meta.dirname, '../../..');
const HOUR = 3_600_000;
/** Seconds a received message stays hidden: long enough for one batch, short enough for a retry in the test. */
const VISIBILITY_SECONDS = 3;
/**
 * A fixed morning (ms, UTC), so no run depends on the clock: its readings fall in four hours of one day and month,
 * none on an hour's first millisecond.
 */
const MORNING = Date.UTC(2026, 9, 14, 9);

type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const sqs = sqsClient();
const readings = () => createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Twelve readings over four hours, values differing per `seed` so two devices' roll-ups cannot pass for each other. */
const morningReadings = (seed: number): StoredReading[] =>
  Array.from({ length: 12 }, (_, i) => ({
    timestamp: MORNING + i * 17 * 60_000 + 30_000,
    values: { pm2_5: seed + ((i * 7) % 11), temperature: 10 + seed + i },
  }));

type Aggregates = Record<string, { n: number; s: number; lo: number; hi: number }>;

/** What each hour's roll-up must hold, counted here from the readings themselves (each reading once). */
const expectedHours = (list: readonly StoredReading[]) => {
  const hours = new Map<number, Aggregates>();
  for (const { timestamp, values } of list) {
    const hour = Math.floor(timestamp / HOUR) * HOUR;
    const m = hours.get(hour) ?? {};
    for (const [name, value] of Object.entries(values)) {
      const a = m[name];
      m[name] = a
        ? { n: a.n + 1, s: a.s + value, lo: Math.min(a.lo, value), hi: Math.max(a.hi, value) }
        : { n: 1, s: value, lo: value, hi: value };
    }
    hours.set(hour, m);
  }
  return [...hours].sort(([a], [b]) => a - b).map(([ts, m]) => ({ ts, m }));
};

const rollupsOf = async (deviceId: string, resolution: 'hour' | 'day') =>
  (await storedRollups(deviceId, resolution)).map(({ ts, m }) => ({ ts, m: m as Aggregates }));

const hourStarts = (list: readonly StoredReading[]) => [
  ...new Set(list.map((r) => Math.floor(r.timestamp / HOUR) * HOUR)),
];

/** A queue of this file's own standing for one of the stack's, its retries seconds apart. */
const ownQueue = (stands: 'jobs' | 'sensorData' | 'rollouts', visibilitySeconds = VISIBILITY_SECONDS) =>
  createOwnQueue(sqs, stands, 'faults', visibilitySeconds);

/** Sends messages in one call, each its own SQS message (a FIFO message in its device's or notification's group). */
const sendAll = async (queue: OwnQueue, messages: readonly { body: unknown; group?: string }[]) => {
  const result = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queue.url,
      Entries: messages.map(({ body, group }, i) => ({
        Id: String(i),
        MessageBody: JSON.stringify(body),
        ...(queue.fifo ? { MessageGroupId: group ?? 'faults', MessageDeduplicationId: randomUUID() } : {}),
      })),
    }),
  );
  expect(result.Failed ?? []).toEqual([]);
};

/** One roll-up message per device, as ingest sends it, each in its device's FIFO group; answers the bodies sent. */
const sendRollups = async (queue: OwnQueue, sent: readonly { id: string; readings: readonly StoredReading[] }[]) => {
  const bodies = sent.map(({ id, readings: list }) =>
    JSON.stringify({ kind: 'rollup', deviceId: id, hours: hourStarts(list) }),
  );
  await sendAll(
    queue,
    bodies.map((body, i) => ({ body: JSON.parse(body), group: `device:${sent[i]!.id}` })),
  );
  return bodies;
};

const waitingIn = (url: string) => waitingInQueue(sqs, url);

/** Every batch a worker was handed: the bodies in order, which of them it reported failed, and their receive counts. */
interface Batch {
  bodies: string[];
  failed: string[];
  receives: number[];
}

/** The real handler, watched: what it was given and what it answered, unchanged. */
const watched = (handler: SqsHandler, batches: Batch[]): SqsHandler => {
  return async (event: SQSEvent) => {
    const result = await handler(event);
    const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    batches.push({
      bodies: event.Records.map((r) => r.body),
      failed: event.Records.filter((r) => failed.has(r.messageId)).map((r) => r.body),
      receives: event.Records.map((r) => Number(r.attributes.ApproximateReceiveCount)),
    });
    return result;
  };
};

const receivesOf = (batches: readonly Batch[], body: string) =>
  batches.flatMap((b) => b.bodies).filter((b) => b === body).length;
const failuresOf = (batches: readonly Batch[], body: string) =>
  batches.flatMap((b) => b.failed).filter((b) => b === body).length;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(100);
  }
};

const staff = async () => apiAs('notifications', await tokenOf('admin@example.com'));
const bannersOf = async (person: FreshUser, notificationId: string) =>
  (
    await apiAs('notifications', person.token).listUserNotifications({ params: { id: person.id, x: 100 } })
  ).items.filter((b) => b.notificationId === notificationId);
const mailsOf = async (person: FreshUser, title: string) =>
  (await mailTo(person.email)).filter((m) => m.subject === title);

/**
 * A notification ready for its one chunk, as the worker leaves it after resolving its audience: `sending`, chunk `c1`
 * planned, its only page done. What the chunk's message then does is the subject of the tests.
 */
const chunkOf = async (people: readonly FreshUser[]) => {
  const title = uniqueId('Fault');
  const draft = await sendingNotification(people, title);
  const message: JobsMessage = {
    kind: 'notification.deliver',
    notificationId: draft.id,
    chunk: 'c1',
    recipients: people.map((p) => p.id),
  };
  return { id: draft.id, title, message, body: JSON.stringify(message) };
};

describe('queue work under faults', () => {
  let dynamodb: FaultProxy;
  let s3: FaultProxy;
  let restoreEnvironment: () => void = () => undefined;
  let handlers: { notifications: SqsHandler; sensorData: SqsHandler; rollouts: SqsHandler; dataIngress: HttpHandler };
  const queues: OwnQueue[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dynamodb = await startFaultProxy(stack().endpoints.dynamodb);
    s3 = await startFaultProxy(stack().endpoints.s3);
    restoreEnvironment = useStackEnvironment();
    // The workers' clients go through the proxies; the test's own clients reach the emulators directly. The workers'
    // line per message would bury a failure's output.
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb.url,
      AWS_ENDPOINT_URL_S3: s3.url,
      LOG_LEVEL: 'warn',
    });
    handlers = {
      notifications: (await import('../../../functions/notifications/worker')).handler as unknown as SqsHandler,
      sensorData: (await import('../../../functions/sensor-data/worker')).handler as unknown as SqsHandler,
      rollouts: (await import('../../../functions/code-releases/worker')).handler as unknown as SqsHandler,
      dataIngress: (await import('../../../functions/data-ingress/handler')).handler as unknown as HttpHandler,
    };
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    restoreEnvironment();
    await Promise.all(queues.map((queue) => deleteOwnQueue(sqs, queue)));
    await dynamodb?.stop();
    await s3?.stop();
  });

  /** The worker errors its failed records on purpose here; the tests read the queues and tables instead. */
  const quietly = async (work: () => Promise<void>) => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await work();
    } finally {
      quiet.mockRestore();
    }
  };

  const pollerOn = (queue: OwnQueue, handler: SqsHandler, batches: Batch[], batchSize?: number) =>
    startSqsPoller({
      sqs,
      queueUrl: queue.url,
      queueArn: '',
      handler: watched(handler, batches),
      batchSize,
      // As the stack runs its workers (WORKER_CONCURRENCY in infra/local/stack.ts).
      concurrency: 4,
      waitSeconds: 1,
    });

  it('a roll-up failing mid-batch on a store error is retried alone; the others are done once; it lands once the store is back', async () => {
    const queue = await ownQueue('sensorData');
    queues.push(queue);
    const devices = [uniqueId('fault-a'), uniqueId('fault-b'), uniqueId('fault-c')];
    const sent = devices.map((id, i) => ({ id, readings: morningReadings(i * 5) }));
    for (const { id, readings: list } of sent) await readings().write(id, list, MORNING);
    const [a, b, c] = sent as [(typeof sent)[0], (typeof sent)[0], (typeof sent)[0]];
    // Every write of the middle device's hours fails, however often the SDK retries, until the store is back.
    const outage = dynamodb.inject((r) => r.target.endsWith('.PutItem') && r.body.includes(`"${b.id}#hour"`));
    const bodies = await sendRollups(queue, sent);
    const batches: Batch[] = [];
    await quietly(async () => {
      const poller = pollerOn(queue, handlers.sensorData, batches);
      try {
        await until('the failing roll-up came back twice', () => failuresOf(batches, bodies[1]!) >= 2);
        // Mid-batch: the first batch held all three, the middle one failed, the last was still worked.
        expect(batches[0]).toEqual({ bodies, failed: [bodies[1]], receives: [1, 1, 1] });
        expect(await rollupsOf(a.id, 'hour')).toEqual(expectedHours(a.readings));
        expect(await rollupsOf(c.id, 'hour')).toEqual(expectedHours(c.readings));
        expect(await rollupsOf(b.id, 'hour')).toEqual([]);
        outage.clear();
        await untilQueueEmpty(sqs, queue.url, { timeoutMs: 20_000 });
      } finally {
        await poller.stop();
      }
    });
    expect(outage.hits).toBeGreaterThanOrEqual(2);
    // The others were acknowledged at once: never received again while the failing one was retried.
    expect(receivesOf(batches, bodies[0]!)).toBe(1);
    expect(receivesOf(batches, bodies[2]!)).toBe(1);
    expect(receivesOf(batches, bodies[1]!)).toBe(failuresOf(batches, bodies[1]!) + 1);
    for (const { id, readings: list } of sent) {
      expect(await rollupsOf(id, 'hour')).toEqual(expectedHours(list));
      const [day] = await rollupsOf(id, 'day');
      expect(day?.m.pm2_5?.n).toBe(list.length);
      const month = await chartObject(id, 'hour', '2026-10');
      expect(month?.m.pm2_5?.count).toEqual(expectedHours(list).map((h) => h.m.pm2_5!.n));
    }
    expect(await waitingIn(queue.deadLetterUrl)).toEqual({ visible: 0, inFlight: 0 });
  }, 90_000);

  it("a notification chunk failing mid-batch on one person's e-mail is retried alone: one banner and one e-mail each", async () => {
    const queue = await ownQueue('jobs');
    queues.push(queue);
    const people = await Promise.all(Array.from({ length: 3 }, () => freshUser({ prefix: 'fault-n' })));
    const [p1, p2, p3] = people as [FreshUser, FreshUser, FreshUser];
    const failing = await chunkOf([p1, p2]);
    const other = await chunkOf([p3]);
    // The claim of p2's e-mail (its first write) fails until the store is back: p1's banner, e-mail and p2's banner
    // are made on the first attempt, the chunk's message fails.
    const outage = dynamodb.inject(
      (r) => r.target.endsWith('.PutItem') && r.body.includes(p2.id) && r.body.includes('"sending"'),
    );
    await sendAll(queue, [{ body: failing.message }, { body: other.message }]);
    const batches: Batch[] = [];
    await quietly(async () => {
      const poller = pollerOn(queue, handlers.notifications, batches);
      try {
        await until('the failing chunk came back twice', () => failuresOf(batches, failing.body) >= 2);
        expect(await mailsOf(p1, failing.title)).toHaveLength(1);
        expect(await mailsOf(p2, failing.title)).toHaveLength(0);
        expect(await bannersOf(p2, failing.id)).toHaveLength(1);
        outage.clear();
        await untilQueueEmpty(sqs, queue.url, { timeoutMs: 20_000 });
      } finally {
        await poller.stop();
      }
    });
    expect(receivesOf(batches, other.body)).toBe(1);
    expect(failuresOf(batches, other.body)).toBe(0);
    for (const [person, chunk] of [
      [p1, failing],
      [p2, failing],
      [p3, other],
    ] as const) {
      expect(await bannersOf(person, chunk.id)).toHaveLength(1);
      expect(await mailsOf(person, chunk.title)).toHaveLength(1);
    }
    expect((await (await staff()).getNotification({ params: { id: failing.id } })).delivery).toMatchObject({
      recipients: 2,
      banners: 2,
      emailsSent: 2,
      emailsFailed: 0,
    });
    expect(await waitingIn(queue.deadLetterUrl)).toEqual({ visible: 0, inFlight: 0 });
  }, 90_000);

  it('a chunk delivered twice, worked side by side, gives each person one banner and one e-mail', async () => {
    const queue = await ownQueue('jobs');
    queues.push(queue);
    const people = await Promise.all(Array.from({ length: 3 }, () => freshUser({ prefix: 'fault-dup' })));
    const chunk = await chunkOf(people);
    await sendAll(queue, [{ body: chunk.message }, { body: chunk.message }]);
    const batches: Batch[] = [];
    await quietly(async () => {
      // One message per batch, so the two copies go to two of the poller's four workers at once.
      const poller = pollerOn(queue, handlers.notifications, batches, 1);
      try {
        await untilQueueEmpty(sqs, queue.url, { timeoutMs: 30_000 });
      } finally {
        await poller.stop();
      }
    });
    // Both copies were delivered (a standard queue keeps both), so the outcome below is the worker's doing.
    expect(receivesOf(batches, chunk.body)).toBeGreaterThanOrEqual(2);
    for (const person of people) {
      expect(await bannersOf(person, chunk.id)).toHaveLength(1);
      expect(await mailsOf(person, chunk.title)).toHaveLength(1);
    }
    expect((await (await staff()).getNotification({ params: { id: chunk.id } })).delivery).toMatchObject({
      recipients: people.length,
      banners: people.length,
      emailsSent: people.length,
    });
    expect(await waitingIn(queue.deadLetterUrl)).toEqual({ visible: 0, inFlight: 0 });
  }, 90_000);

  it('readings sent out of order and resent through ingest converge on the roll-ups and charts of an in-order device', async () => {
    const [inOrder, shuffled] = await Promise.all([freshDevice(), freshDevice()]);
    const list = morningReadings(3);
    const batchesOf = (readingsList: readonly StoredReading[]) =>
      Array.from({ length: 4 }, (_, i) => readingsList.slice(i * 3, i * 3 + 3));
    for (const batch of batchesOf(list)) await ingest(inOrder, batch);
    // The same readings newest batch first, each batch newest first, and one batch resent at the end.
    const reversed = batchesOf(list)
      .reverse()
      .map((batch) => [...batch].reverse());
    for (const batch of [...reversed, reversed[1]!]) await ingest(shuffled, batch);
    // Each ingest queued its roll-up before answering: once the stack's queue is empty, every recompute is done.
    await untilQueueEmpty(sqs, stack().queues.sensorData!, { timeoutMs: 60_000 });

    const expected = expectedHours(list);
    for (const device of [inOrder, shuffled]) expect(await rollupsOf(device.id, 'hour')).toEqual(expected);
    const [day] = await rollupsOf(shuffled.id, 'day');
    expect(day?.m.pm2_5?.n).toBe(list.length);
    expect(await rollupsOf(shuffled.id, 'day')).toEqual(await rollupsOf(inOrder.id, 'day'));
    for (const [resolution, period] of [
      ['hour', '2026-10'],
      ['day', '2026'],
    ] as const) {
      const reference = await chartObject(inOrder.id, resolution, period);
      expect(reference?.t.length).toBe(resolution === 'hour' ? expected.length : 1);
      expect(await chartObject(shuffled.id, resolution, period)).toEqual({ ...reference, deviceId: shuffled.id });
    }
  }, 120_000);

  it("a dataset's build message delivered three times: every device's files once, a manifest whose checksums hold, untouched by late copies", async () => {
    const owner = await freshUser({ prefix: 'fault-dataset' });
    const devices = await Promise.all([
      freshDevice({ ownerToken: owner.token }),
      freshDevice({ ownerToken: owner.token }),
    ]);
    const now = Date.now();
    const seeded = devices.map((device, d) => ({
      device,
      // Hours back from now, well inside the tier's 30-day download window, so no clipping depends on the clock.
      list: Array.from({ length: 6 + d }, (_, i) => ({
        timestamp: now - (i + 2) * HOUR,
        values: { pm2_5: d * 10 + i },
      })),
    }));
    for (const { device, list } of seeded) {
      await setTier(device.id, 'tier1');
      await readings().write(device.id, list, now);
    }
    const created = await apiAs('datasets', owner.token).createDataset({
      body: {
        title: uniqueId('Fault dataset'),
        description: 'Duplicated steps',
        visibility: 'permissioned',
        source: { kind: 'devices', deviceIds: devices.map((d) => d.id) },
        from: now - 2 * 24 * HOUR,
      },
    });
    // Two more "next step" messages beside the one the request sent, on the stack's own queue and worker: a step's
    // message delivered again is one of these.
    const queue: OwnQueue = { url: stack().queues.datasets!, deadLetterUrl: '', fifo: true };
    const build = { kind: 'build', datasetId: created.id };
    await sendAll(queue, [
      { body: build, group: `dataset:${created.id}` },
      { body: build, group: `dataset:${created.id}` },
    ]);
    const { dataset } = await waitForDataset(created.id, owner.token);
    await untilQueueEmpty(sqs, queue.url, { timeoutMs: 30_000 });
    expect(dataset.status).toBe('frozen');
    expect(dataset.devices.map((d) => d.rows)).toEqual(seeded.map(({ list }) => list.length));
    expect(dataset.files.map((f) => f.name).sort()).toEqual(
      [...devices.flatMap((d) => [`${d.id}.csv`, `${d.id}.json`]), manifestFile(dataset).name].sort(),
    );
    const manifestBytes = await fetchDatasetFile(manifestFile(dataset), owner.token);
    expect(sha256(manifestBytes)).toBe(manifestFile(dataset).sha256);
    const manifest = JSON.parse(manifestBytes.toString('utf8'));
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual(
      devices.flatMap((d) => [`${d.id}.csv`, `${d.id}.json`]),
    );
    for (const entry of manifest.files as { name: string; sha256: string; rows: number }[]) {
      const file = dataset.files.find((f) => f.name === entry.name)!;
      expect(sha256(await fetchDatasetFile(file, owner.token))).toBe(entry.sha256);
    }
    // The late copies, worked after the freeze, left it as it was.
    expect(await apiAs('datasets', owner.token).getDataset({ params: { datasetId: created.id } })).toEqual(dataset);
  }, 120_000);

  it('ingest failing mid-batch on a store outage answers 503 with Retry-After; the resent batch is stored, counted and rolled up once', async () => {
    const device = await freshDevice();
    // Sixty readings over four hours: four items, one an hour (decision 044), written side by side.
    const list = Array.from({ length: 60 }, (_, i) => ({
      timestamp: MORNING + i * 4 * 60_000 + 30_000,
      values: { pm2_5: (i * 7) % 23, temperature: 10 + (i % 5) },
    }));
    const post = async () => {
      const answer = await handlers.dataIngress(
        {
          resource: '/readings',
          path: '/readings',
          httpMethod: 'POST',
          headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
          multiValueHeaders: {},
          queryStringParameters: null,
          multiValueQueryStringParameters: null,
          pathParameters: null,
          stageVariables: null,
          body: JSON.stringify({ readings: list }),
          isBase64Encoded: false,
          requestContext: { requestId: randomUUID(), identity: { sourceIp: '127.0.0.1' } } as never,
        },
        {} as Context,
      );
      return { status: answer.statusCode, headers: answer.headers ?? {}, body: JSON.parse(answer.body) };
    };
    // The write holding the 30th reading fails, however often the SDK retries; the other three land.
    const outage = dynamodb.inject(
      (r) => r.target.endsWith('.PutItem') && r.body.includes(`"N":"${list[30]!.timestamp}"`),
    );
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    await quietly(async () => {
      refused = await post();
    });
    expect(outage.hits).toBeGreaterThanOrEqual(2);
    expect(refused).toEqual({
      status: 503,
      headers: expect.objectContaining({ 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) }),
      body: { message: DEPENDENCY_UNAVAILABLE },
    });
    const partial = await readings().query(device.id, { from: MORNING, to: MORNING + 5 * HOUR, limit: 1_000 });
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(list.length);
    expect(partial.map((r) => r.timestamp)).not.toContain(list[30]!.timestamp);

    // The device does what the 503 says: it sends the same batch again.
    outage.clear();
    const days = new Set([new Date().toISOString().slice(0, 10)]);
    expect(await post()).toMatchObject({ status: 200, body: { accepted: list.length, rejected: [] } });
    days.add(new Date().toISOString().slice(0, 10));
    const stored = await readings().query(device.id, { from: MORNING, to: MORNING + 5 * HOUR, limit: 1_000 });
    expect(stored.map((r) => r.timestamp).sort((a, b) => a - b)).toEqual(list.map((r) => r.timestamp));
    // Counted once: the failed attempt stored part of the batch but counted none of it.
    let counted = 0;
    // Counted on the day of the request, which a run at midnight could change between the two sends.
    for (const day of days) {
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: stack().tables.ingestStats!, Key: { deviceId: device.id, day } }),
      );
      counted += Number(Item?.accepted ?? 0);
    }
    expect(counted).toBe(list.length);
    await untilQueueEmpty(sqs, stack().queues.sensorData!, { timeoutMs: 60_000 });
    expect(await rollupsOf(device.id, 'hour')).toEqual(expectedHours(list));
    const month = await chartObject(device.id, 'hour', '2026-10');
    expect(month?.m.pm2_5?.count).toEqual(expectedHours(list).map((h) => h.m.pm2_5!.n));
  }, 120_000);

  it('the store restarting mid-roll-up: the cut request fails its record, which comes back and lands once', async () => {
    const queue = await ownQueue('sensorData');
    queues.push(queue);
    const devices = [uniqueId('fault-restart-a'), uniqueId('fault-restart-b')];
    const sent = devices.map((id, i) => ({ id, readings: morningReadings(20 + i * 3) }));
    for (const { id, readings: list } of sent) await readings().write(id, list, MORNING);
    // The first device's first hour write is in flight when the store goes down for longer than the SDK's retries.
    const inFlight = dynamodb.inject(
      (r) => r.target.endsWith('.PutItem') && r.body.includes(`"${sent[0]!.id}#hour"`),
      'hold',
    );
    const bodies = await sendRollups(queue, sent);
    const batches: Batch[] = [];
    await quietly(async () => {
      const poller = pollerOn(queue, handlers.sensorData, batches);
      try {
        await inFlight.hit;
        inFlight.clear();
        await dynamodb.restart(3_000);
        await untilQueueEmpty(sqs, queue.url, { timeoutMs: 30_000 });
      } finally {
        await poller.stop();
      }
    });
    // The cut roll-up failed at least once and was received again; in the end every roll-up holds each reading once.
    expect(failuresOf(batches, bodies[0]!)).toBeGreaterThanOrEqual(1);
    expect(receivesOf(batches, bodies[0]!)).toBe(failuresOf(batches, bodies[0]!) + 1);
    for (const { id, readings: list } of sent) {
      expect(await rollupsOf(id, 'hour')).toEqual(expectedHours(list));
      const month = await chartObject(id, 'hour', '2026-10');
      expect(month?.m.pm2_5?.count).toEqual(expectedHours(list).map((h) => h.m.pm2_5!.n));
    }
    expect(await waitingIn(queue.deadLetterUrl)).toEqual({ visible: 0, inFlight: 0 });
  }, 90_000);

  it('a worker killed mid-batch: the message it received comes back after its visibility timeout and is done once', async () => {
    // Longer than the others: the message must still be in flight when the test looks, after the process stopped.
    const queue = await ownQueue('sensorData', 5);
    queues.push(queue);
    const deviceId = uniqueId('fault-kill');
    const list = morningReadings(7);
    await readings().write(deviceId, list, MORNING);
    // The chart object is the roll-up's last write: the process dies waiting for it, the table's part done.
    const stall = s3.inject((r) => r.method === 'PUT' && r.url.includes(`/charts/${deviceId}/`), 'hold');
    const [body] = await sendRollups(queue, [{ id: deviceId, readings: list }]);
    const worker = startWorkerProcess(rootDir, 'functions/sensor-data/worker.ts', queue.url, {
      ...process.env,
      LOG_LEVEL: 'error',
    });
    const { child, exited } = worker;
    children.push(child);
    await Promise.race([
      stall.hit,
      exited.then(() => {
        throw new Error(`The worker process exited early:\n${worker.output()}`);
      }),
      sleep(60_000).then(() => {
        throw new Error(`The worker process never reached the chart write:\n${worker.output()}`);
      }),
    ]);
    expect(await waitingIn(queue.url)).toEqual({ visible: 0, inFlight: 1 });
    expect(await rollupsOf(deviceId, 'hour')).toEqual(expectedHours(list));
    expect(await chartObject(deviceId, 'hour', '2026-10')).toBeUndefined();
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    stall.clear();

    const batches: Batch[] = [];
    const poller = pollerOn(queue, handlers.sensorData, batches);
    try {
      await untilQueueEmpty(sqs, queue.url, { timeoutMs: 20_000 });
    } finally {
      await poller.stop();
    }
    expect(batches).toEqual([{ bodies: [body], failed: [], receives: [2] }]);
    expect(await rollupsOf(deviceId, 'hour')).toEqual(expectedHours(list));
    const month = await chartObject(deviceId, 'hour', '2026-10');
    expect(month?.m.pm2_5?.count).toEqual(expectedHours(list).map((h) => h.m.pm2_5!.n));
    const [day] = await rollupsOf(deviceId, 'day');
    expect(day?.m.pm2_5?.n).toBe(list.length);
    expect(await waitingIn(queue.deadLetterUrl)).toEqual({ visible: 0, inFlight: 0 });
  }, 120_000);

  it('a preparing rollout whose step fails on every try is halted on the last try; resumed, it turns active', async () => {
    const queue = await ownQueue('rollouts');
    queues.push(queue);
    const release = await seedRelease({ results: ['Pass'] });
    const fleet = await seedFleet(3);
    // Its first step held back, and sent to this file's queue instead of the stack's.
    const { rollout } = await preparingRollout(release.id, fleet);
    const admin = apiAs('code-releases', await tokenOf('admin@example.com'));
    // Every write pointing one of its devices at it fails, however often the SDK retries; the others go through, and
    // are found pointing at it when the step is worked again. One device only: the retries of the workers' client
    // share a quota, which the next tests' faults need.
    const outage = dynamodb.inject(
      (r) =>
        r.target.endsWith('.UpdateItem') &&
        r.body.includes('firmwareHistory') &&
        r.body.includes(rollout.id) &&
        r.body.includes(`"${fleet[1]}"`),
    );
    const message: PrepareMessage = { kind: 'prepare', rolloutId: rollout.id };
    await sendAll(queue, [{ body: message, group: prepareGroupOf(message) }]);
    const body = JSON.stringify(message);
    const batches: Batch[] = [];
    await quietly(async () => {
      const poller = pollerOn(queue, handlers.rollouts, batches);
      try {
        await until('the step was tried for the last time', () => failuresOf(batches, body) >= MAX_RECEIVES.rollouts);
        // The queue moves it on the receive after its last.
        await until('the message is in the dead-letter queue', async () => {
          return (await waitingIn(queue.deadLetterUrl)).visible === 1;
        });
      } finally {
        await poller.stop();
      }
    });
    outage.clear();
    expect(batches.flatMap((batch) => batch.receives)).toEqual([1, 2, 3, 4, 5]);
    const halted = await admin.getRollout({ params: { id: rollout.id } });
    expect(halted).toMatchObject({
      status: 'halted',
      haltedBy: 'automatic',
      haltReason: RELEASE_MESSAGES.rolloutAssignmentStalled(MAX_RECEIVES.rollouts),
      preparing: { assigned: 0, of: 3 },
    });
    // A person's resume sends the step again, on the stack's queue: its worker assigns the devices.
    expect((await admin.resumeRollout({ params: { id: rollout.id } })).status).toBe('preparing');
    await until('the rollout is active', async () => {
      const found = await admin.getRollout({ params: { id: rollout.id } });
      return found.status === 'active' && found.counts.targeted === 3;
    });
  }, 90_000);
});
