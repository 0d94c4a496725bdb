import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { readingsEvents } from '../../functions/_shared/integrations/webhook-publisher';
import type { QueuedEvent } from '../../functions/_shared/integrations/webhook-records';
import { createLanes, RUN_BUDGET_MS } from '../../functions/integrations/domain/lanes';
import type { WebhookRecord } from '../../functions/integrations/domain/ports';
import { DISABLE_AFTER_MS } from '../../functions/integrations/domain/webhook-rules';
import { createHttpSender } from '../../functions/integrations/store/http-sender';
import {
  clearBox,
  memoryDeliveries,
  memoryWebhooks,
  recordedNotices,
  recordedTimers,
} from '../support/integrations-memory';
import { silentLog } from '../support/log';
import { AWS_PRICES } from './aws-prices';
import { seeded } from './seeded';

/**
 * Issue 38's measures (`npm run bench`, section `webhooks`), of the delivery lanes (functions/integrations/domain/lanes.ts)
 * as the worker runs them, on a clock the bench sets, sending through the real HTTP sender (request-filtering-agent,
 * Standard Webhooks signatures) to a real receiver on 127.0.0.1 that verifies every request with `standardwebhooks`.
 * The lanes' stores are the in-memory ones of the unit tests (test/support/integrations-memory.ts): what is measured
 * is what the lanes send and how often they run, not DynamoDB's latency (the integration tests cover the real stores).
 *
 * 1. A receiver that answers 503 for a simulated day, then 200: a device's batch a minute all day. The webhook is
 *    turned off after 24 hours of failure (as the issue asks), its owner turns it on again, and what waited is sent.
 *    Goal: every event delivered, none twice by `webhook-id`.
 * 2. 1,000 devices each sending a batch a minute to one webhook for a simulated hour, the receiver up: requests made,
 *    p95 from ingest to delivery (goal ≤ 10 s), lane runs (Lambda invocations) and what delivery adds per device-month.
 */

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const WEBHOOK = 'wh_benchbenchbenchbench';
const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
const MINUTE = 60_000;
/** The outbox's wake waits a second (WAKE_DELAY_SECONDS) so events of one moment travel together. */
const WAKE_DELAY_MS = 1_000;

/**
 * The receiver verifies each request at its own time, which is the simulated clock's (the library reads Date.now to
 * refuse a timestamp more than five minutes off).
 */
const verifyAt = <T>(clock: () => number, verify: () => T): T => {
  const real = Date.now;
  Date.now = clock;
  try {
    return verify();
  } finally {
    Date.now = real;
  }
};

const startReceiver = async (clock: () => number) => {
  const verifier = new Webhook(SECRET);
  let status = 204;
  const answered: { webhookId: string; status: number; batchIds: string[] }[] = [];
  let unverified = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = verifyAt(clock, () => verifier.verify(body, incoming.headers as Record<string, string>)) as {
          data: { batches?: { batchId: string }[] };
        };
        answered.push({
          webhookId: String(incoming.headers['webhook-id']),
          status,
          batchIds: (event.data.batches ?? []).map((batch) => batch.batchId),
        });
        outgoing.writeHead(status).end(status === 204 ? '' : 'busy');
      } catch {
        unverified += 1;
        outgoing.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    answered,
    unverified: () => unverified,
    answer: (next: number) => {
      status = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** A webhook, its lane over memory stores, the real sender, and a clock the bench moves. */
const world = (url: string, clock: { now: number }) => {
  const now = () => clock.now;
  const record: WebhookRecord = {
    id: WEBHOOK,
    url,
    events: ['readings.received'],
    targetKind: 'organization',
    targetId: 'bench-org',
    description: '',
    status: 'enabled',
    secret: `clear:${WEBHOOK}:${SECRET}`,
    created: T0,
    createdBy: 'bench-owner',
    updated: T0,
  };
  const webhooks = memoryWebhooks([record]);
  const deliveries = memoryDeliveries();
  const notices = recordedNotices();
  let token = 0;
  let runs = 0;
  const lanes = createLanes({
    webhooks: webhooks.store,
    deliveries: deliveries.store,
    sender: createHttpSender({ policy: 'local' }),
    secrets: clearBox,
    timers: recordedTimers().timers,
    notices: notices.notices,
    // The bench's webhook takes no presence events.
    presence: { changed: async () => undefined },
    now,
    random: seeded(38),
    newToken: () => `t${++token}`,
    // As the worker: a run sends for RUN_BUDGET_MS of real time, then hands on to a fresh message.
    startBudget: () => {
      const started = performance.now();
      return () => performance.now() - started > RUN_BUDGET_MS;
    },
    owner: 'bench-worker',
    log: silentLog,
  });
  /** A wake message taken by the worker: one invocation; a run that handed on is carried on by its timer's message. */
  const invoke = async (message: Parameters<typeof lanes.run>[0]): Promise<string> => {
    runs += 1;
    const outcome = await lanes.run(message);
    if (!outcome.startsWith('handed on')) return outcome;
    const timer = deliveries.laneOf(WEBHOOK)?.timer as { token: string; dueAt: number };
    return invoke({ kind: 'lane.wake', webhookId: WEBHOOK, token: timer.token, dueAt: timer.dueAt });
  };
  return {
    webhooks,
    deliveries,
    notices,
    runs: () => runs,
    at: (time: number) => {
      clock.now = time;
    },
    now,
    publish: (events: QueuedEvent[]) => deliveries.append(WEBHOOK, events, now()),
    wake: () => invoke({ kind: 'lane.wake', webhookId: WEBHOOK }),
    timer: () => deliveries.laneOf(WEBHOOK)?.timer as { token: string; dueAt: number } | undefined,
    fire: (timer: { token: string; dueAt: number }) =>
      invoke({ kind: 'lane.wake', webhookId: WEBHOOK, token: timer.token, dueAt: timer.dueAt }),
  };
};

const batchOf = (deviceId: string, at: number, minute: number) =>
  readingsEvents(deviceId, [{ timestamp: at - 500, values: { co2: 400 + (minute % 50), temperature: 21.5 } }], at);

/** 1. A day of 503, then 200: every event delivered, none twice. */
export const benchWebhookOutage = async () => {
  const clock = { now: T0 };
  const receiver = await startReceiver(() => clock.now);
  const w = world(receiver.url, clock);
  try {
    receiver.answer(503);
    const published = new Set<string>();
    const minutes = DISABLE_AFTER_MS / MINUTE;
    let minute = 0;
    // Events and retry timers in time order, for as long as the webhook is on (a day of failure turns it off).
    while (w.webhooks.byId.get(WEBHOOK)!.status === 'enabled') {
      const nextEvent = minute < minutes + 60 ? T0 + minute * MINUTE : Number.POSITIVE_INFINITY;
      const timer = w.timer();
      if (timer && timer.dueAt <= nextEvent) {
        w.at(timer.dueAt);
        await w.fire(timer);
        continue;
      }
      w.at(nextEvent);
      const events = batchOf('bench-device-1', nextEvent, minute);
      for (const event of events) published.add(event.id);
      w.publish(events);
      await w.wake();
      minute += 1;
    }
    const offAt = w.now();
    const failedRequests = receiver.answered.length;
    // Its owner turns it on again a minute later (what the PUT does: on, and the delivery under way due now).
    receiver.answer(204);
    w.at(offAt + MINUTE);
    await w.webhooks.store.change(
      WEBHOOK,
      { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null },
      w.webhooks.byId.get(WEBHOOK)!.updated,
    );
    const head = w.deliveries.laneOf(WEBHOOK)?.head as string | undefined;
    if (head) await w.deliveries.store.updateDelivery(WEBHOOK, head, { status: 'pending', nextAttemptAt: w.now() });
    await w.wake();
    const delivered = receiver.answered.filter((request) => request.status === 204);
    const ids = delivered.map((request) => request.webhookId);
    const batchIds = delivered.flatMap((request) => request.batchIds);
    const arrived = new Set(batchIds);
    return {
      events: published.size,
      deliveredEvents: [...published].filter((id) => arrived.has(id)).length,
      duplicateWebhookIds: ids.length - new Set(ids).size,
      duplicateEvents: batchIds.length - arrived.size,
      failedRequests,
      deliveredRequests: delivered.length,
      offAfterHours: (offAt - T0) / 3_600_000,
      notices: w.notices.events.length,
      unverified: receiver.unverified(),
    };
  } finally {
    await receiver.stop();
  }
};

/** 2. 1,000 devices, a batch a minute each, for an hour, to one webhook whose receiver is up. */
export const benchWebhookLoad = async ({ devices = 1_000, minutes = 60 } = {}) => {
  const clock = { now: T0 };
  const receiver = await startReceiver(() => clock.now);
  const w = world(receiver.url, clock);
  const random = seeded(1000);
  try {
    // Each device reports at its own second of the minute.
    const offsets = Array.from({ length: devices }, () => Math.floor(random() * MINUTE));
    const arrivals = Array.from({ length: minutes }, (_, m) =>
      offsets.map((offset, d) => ({ at: T0 + m * MINUTE + offset, device: `bench-device-${d}`, minute: m })),
    )
      .flat()
      .sort((a, b) => a.at - b.at);
    const publishedAt = new Map<string, number>();
    const latencies: number[] = [];
    let wakeAt: number | undefined;
    let laneFreeAt = T0;
    const runLane = async () => {
      // The run starts when its wake message arrives and the lane is free; the clock moves on by what it really took.
      const start = Math.max(wakeAt!, laneFreeAt);
      w.at(start);
      wakeAt = undefined;
      const before = receiver.answered.length;
      const started = performance.now();
      await w.wake();
      const took = performance.now() - started;
      laneFreeAt = start + took;
      // Each request's events count as delivered when the run ends: an upper bound on the time they took.
      for (const request of receiver.answered.slice(before)) {
        for (const id of request.batchIds) latencies.push(laneFreeAt - publishedAt.get(id)!);
      }
    };
    for (const arrival of arrivals) {
      if (wakeAt !== undefined && Math.max(wakeAt, laneFreeAt) <= arrival.at) await runLane();
      w.at(arrival.at);
      const events = batchOf(arrival.device, arrival.at, arrival.minute);
      for (const event of events) publishedAt.set(event.id, arrival.at);
      w.publish(events);
      // One wake in flight per lane (the outbox's wakeAt): the first event after a run asks for the next.
      wakeAt ??= arrival.at + WAKE_DELAY_MS;
    }
    if (wakeAt !== undefined) await runLane();
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]! / 1000;
    const requests = receiver.answered.length;
    const runs = w.runs();
    // What delivery adds per device and month, scaled from the hour: the worker's invocations (its 256 MB for the
    // time the run took at most, a second each here, generously), the queue's wake messages (sent, received,
    // deleted: 3 requests each), and DynamoDB's writes (each event stored and removed, each delivery written and
    // updated, the lane changed about 4 times a run).
    const hoursPerMonth = 730;
    const perDeviceMonth = (count: number) => (count / devices) * (hoursPerMonth / (minutes / 60));
    const lambda =
      (perDeviceMonth(runs) / 1e6) * AWS_PRICES.lambda.perMillionRequests +
      perDeviceMonth(runs) * 0.25 * 1 * AWS_PRICES.lambda.perGbSecondArm;
    const sqs = ((perDeviceMonth(runs) * 3) / 1e6) * AWS_PRICES.sqs.perMillionStandardRequests;
    const writes = perDeviceMonth(publishedAt.size * 2 + requests * 2 + runs * 4);
    const dynamodb = (writes / 1e6) * AWS_PRICES.dynamodb.perMillionWriteRequestUnits;
    return {
      devices,
      minutes,
      events: publishedAt.size,
      delivered: latencies.length,
      requests,
      runs,
      p50Seconds: pct(0.5),
      p95Seconds: pct(0.95),
      maxSeconds: latencies.at(-1)! / 1000,
      costPerDeviceMonth: { lambda, sqs, dynamodb, total: lambda + sqs + dynamodb },
      unverified: receiver.unverified(),
    };
  } finally {
    await receiver.stop();
  }
};

const usd = (value: number) => `$${value.toFixed(5)}`;

export const printWebhooks = async () => {
  const outage = await benchWebhookOutage();
  console.log(
    '\nWebhooks: a receiver answering 503 for a simulated day, then 200 (goal: 100 % delivered, 0 duplicates)\n',
  );
  console.table([
    { measure: 'events published (a batch a minute)', value: outage.events.toLocaleString('en') },
    {
      measure: 'turned off after (24 h of failure), owner notified',
      value: `${outage.offAfterHours.toFixed(2)} h, ${outage.notices} notice(s)`,
    },
    { measure: 'failed requests during the day', value: outage.failedRequests },
    {
      measure: 'events delivered once turned on again',
      value: `${outage.deliveredEvents.toLocaleString('en')} (${((100 * outage.deliveredEvents) / outage.events).toFixed(1)} %) in ${outage.deliveredRequests} requests`,
    },
    {
      measure: 'duplicates by webhook-id / by event',
      value: `${outage.duplicateWebhookIds} / ${outage.duplicateEvents}`,
    },
    { measure: 'requests failing verification', value: outage.unverified },
  ]);
  const load = await benchWebhookLoad({
    devices: Number(process.env.BENCH_WEBHOOK_DEVICES ?? 1_000),
    minutes: Number(process.env.BENCH_WEBHOOK_MINUTES ?? 60),
  });
  console.log(
    `\nWebhooks: ${load.devices.toLocaleString('en')} devices, a batch a minute each, one webhook, a simulated ${load.minutes} min (goal: p95 ≤ 10 s)\n`,
  );
  console.table([
    {
      measure: 'events (stored batches) / delivered',
      value: `${load.events.toLocaleString('en')} / ${load.delivered.toLocaleString('en')}`,
    },
    {
      measure: 'requests made (batched up to 100)',
      value: `${load.requests.toLocaleString('en')} (${(load.events / load.requests).toFixed(1)} batches each)`,
    },
    { measure: 'lane runs (worker invocations)', value: load.runs.toLocaleString('en') },
    {
      measure: 'ingest → delivery p50 / p95 / max',
      value: `${load.p50Seconds.toFixed(2)} s / ${load.p95Seconds.toFixed(2)} s / ${load.maxSeconds.toFixed(2)} s`,
    },
    {
      measure: `added per device-month (Lambda, SQS, DynamoDB writes; prices of ${AWS_PRICES.asOf})`,
      value: `${usd(load.costPerDeviceMonth.total)} (${usd(load.costPerDeviceMonth.lambda)} + ${usd(load.costPerDeviceMonth.sqs)} + ${usd(load.costPerDeviceMonth.dynamodb)})`,
    },
    { measure: 'requests failing verification', value: load.unverified },
  ]);
};
