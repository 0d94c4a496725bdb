import { gunzipSync, gzipSync } from 'node:zlib';
import type { DomainEvent } from '../../../shared/contracts/events';
import type { DeliveryAttempt } from '../../../shared/contracts/integrations';
import { WEBHOOK_EVENT_VERSION, type WebhookEventBody } from '../../../shared/contracts/webhook-events';
import {
  DELIVERY_PREFIX,
  eventIdOf,
  KEEP_MS,
  type LaneWake,
  OUTBOX_PREFIX,
  type QueuedEvent,
  TEST_PREFIX,
  watchesPresence,
} from '../../_shared/integrations/webhook-records';
import type { Log } from '../../_shared/logger';
import type {
  DeliveryRecord,
  DeliveryStore,
  LaneState,
  LaneTimer,
  LaneTimers,
  PresenceWatches,
  SecretBox,
  WebhookRecord,
  WebhookSender,
  WebhookStore,
} from './ports';
import { presenceWatchMoved } from './presence-watch';
import { signatureHeaders } from './signing';
import { deliveryIdOf, deliverySequence, firstBytes, KEPT_ATTEMPTS, nextAttemptAt, outcomeOf } from './webhook-rules';

/** A delivery carries at most this many stored batches (readings.received)… */
export const MAX_BATCHES_PER_DELIVERY = 100;
/** …and at most this much of their data (the 1 MB). */
export const MAX_DELIVERY_BYTES = 1_000_000;
/** A delivery's gzip'd body stays below this, well inside DynamoDB's 400 KB item with its attempts. */
export const MAX_STORED_BODY_BYTES = 330_000;
/** A lane is held this long: longer than the worker may run (60 s), so a worker that stopped frees it soon after. */
export const LEASE_MS = 90_000;
/** A lane sends for this long, then hands on to a fresh message (the worker's minute holds one more 15 s request). */
export const RUN_BUDGET_MS = 30_000;
/** A timer whose lane was busy when it came tries again this much later. */
export const BUSY_RETRY_MS = 5_000;

export interface LaneDeps {
  webhooks: Pick<WebhookStore, 'get' | 'markFailing' | 'markAnswering' | 'disable'>;
  deliveries: DeliveryStore;
  sender: WebhookSender;
  secrets: Pick<SecretBox, 'open'>;
  timers: LaneTimers;
  /** The owner's notice when the webhook is turned off (the jobs queue). */
  notices: { publish: (events: readonly DomainEvent[]) => Promise<void> };
  /** A webhook turned off here stops its devices' presence watch, as one turned off by its owner does (decision 105). */
  presence: PresenceWatches;
  now: () => number;
  /** In [0, 1): the retry waits' jitter. */
  random: () => number;
  newToken: () => string;
  /** Starts a run's clock of real time: the returned function says when the run's budget is spent. */
  startBudget: () => () => boolean;
  /**
   * Who holds a lane while a run sends, for its lease: a fixed name (a test holding a lane for its own runs), or a new
   * name per run, as the worker gives it, since one process may run several messages at once (the local stack's
   * poller does) and two runs under one name would both hold the lane and send the same delivery twice.
   */
  owner: string | (() => string);
  log: Log;
}

const headers = (signed: Record<string, string>) => ({
  ...signed,
  'content-type': 'application/json',
  'user-agent': 'device-data-webhooks/1',
});

/** The first attempt and the latest ones: a delivery replayed many times stays small. */
const keepAttempts = (attempts: DeliveryAttempt[]) =>
  attempts.length <= KEPT_ATTEMPTS ? attempts : [attempts[0]!, ...attempts.slice(-(KEPT_ATTEMPTS - 1))];

/** The waiting events one delivery takes: consecutive readings batches (up to 100, 1 MB), or one event. */
export const pickEvents = <E extends Pick<QueuedEvent, 'type' | 'bytes'>>(waiting: readonly E[]): E[] => {
  const [first] = waiting;
  if (!first) return [];
  if (first.type !== 'readings.received') return [first];
  const picked: E[] = [];
  let bytes = 0;
  for (const event of waiting) {
    if (event.type !== 'readings.received' || picked.length === MAX_BATCHES_PER_DELIVERY) break;
    if (picked.length && bytes + event.bytes > MAX_DELIVERY_BYTES) break;
    picked.push(event);
    bytes += event.bytes;
  }
  return picked;
};

/** The event a delivery sends: one event as it is, or readings batches merged into one readings.received. */
export const envelopeOf = (events: readonly QueuedEvent[]): WebhookEventBody => {
  const first = events[0]!;
  if (events.length === 1) {
    return {
      id: first.id,
      type: first.type,
      time: new Date(first.time).toISOString(),
      version: WEBHOOK_EVENT_VERSION,
      data: first.data,
    } as WebhookEventBody;
  }
  return {
    id: eventIdOf('readings.received', ...events.map((event) => event.id)),
    type: 'readings.received',
    time: new Date(Math.max(...events.map((event) => event.time))).toISOString(),
    version: WEBHOOK_EVENT_VERSION,
    data: { batches: events.flatMap((event) => (event.data as { batches: unknown[] }).batches) },
  } as WebhookEventBody;
};

/**
 * A webhook's lane (docs/integrations.md, "Delivery"): one worker at a time holds it and sends its deliveries in
 * order, one delivery under way at a time (the head), so a webhook's events arrive in the order they waited, per
 * device too. Test events go first, even while the head waits to retry or the webhook is off. A failed head is
 * retried on the schedule of `nextAttemptAt` (a timer message), and after 24 hours of failure, or at once on 410 Gone,
 * the webhook is turned off and its owner told; what waited stays for when it is turned on again.
 */
export const createLanes = (deps: LaneDeps) => {
  const { deliveries, webhooks, now, log } = deps;
  const opened = new Map<string, string>();

  const open = async (sealed: string, webhookId: string) => {
    const known = opened.get(sealed);
    if (known) return known;
    const secret = await deps.secrets.open(sealed, webhookId);
    if (opened.size > 1_000) opened.clear();
    opened.set(sealed, secret);
    return secret;
  };

  /** The secrets that sign now: the current one, and the previous one until its day is over. */
  const signingSecrets = async (webhook: WebhookRecord, at: number) => [
    await open(webhook.secret, webhook.id),
    ...(webhook.previousSecret && (webhook.previousSecretUntil ?? 0) > at
      ? [await open(webhook.previousSecret, webhook.id)]
      : []),
  ];

  /** One POST of a delivery, signed for this attempt's time. */
  const attemptOnce = async (webhook: WebhookRecord, delivery: DeliveryRecord, manual: boolean) => {
    const at = now();
    const body = gunzipSync(delivery.body).toString('utf8');
    const signed = signatureHeaders(await signingSecrets(webhook, at), delivery.id, at, body);
    const result = await deps.sender.send({ url: webhook.url, body, headers: headers(signed) });
    const attempt: DeliveryAttempt = {
      at,
      durationMs: Math.round(result.durationMs),
      ...('statusCode' in result
        ? { statusCode: result.statusCode, ...(result.response ? { response: firstBytes(result.response) } : {}) }
        : { error: result.error }),
      ...(manual ? { manual: true } : {}),
    };
    const outcome = outcomeOf('statusCode' in result ? result.statusCode : undefined);
    log(outcome === 'delivered' ? 'info' : 'warn', 'Webhook attempt', {
      webhookId: webhook.id,
      deliveryId: delivery.id,
      outcome,
      statusCode: attempt.statusCode,
      error: attempt.error,
      durationMs: attempt.durationMs,
    });
    return { outcome, at, attempts: keepAttempts([...delivery.attempts, attempt]), count: delivery.attemptCount + 1 };
  };

  const turnOff = async (webhook: WebhookRecord, reason: 'gone' | 'failing', at: number) => {
    if (!(await webhooks.disable(webhook.id, reason, at))) return;
    // The owner hears of it (banner and e-mail, with a link to the log); a failed send retries the lane's message.
    await deps.notices.publish([
      {
        kind: 'webhook.disabled',
        eventId: `${webhook.id}#${at}`,
        webhookId: webhook.id,
        url: webhook.url,
        reason,
        targetKind: webhook.targetKind,
        targetId: webhook.targetId,
        ...(webhook.failingSince !== undefined ? { failingSince: webhook.failingSince } : {}),
        actorId: webhook.createdBy,
        at,
      },
    ]);
    log('warn', 'Webhook turned off', { webhookId: webhook.id, reason });
    if (watchesPresence(webhook)) await presenceWatchMoved(deps.presence, log, webhook);
  };

  /** Held while the lane runs: its state as this run last wrote it. */
  interface Run {
    webhookId: string;
    /** Who holds the lane for this run. */
    owner: string;
    lane: LaneState;
    timeUp: () => boolean;
  }

  const change = async (run: Run, changes: Parameters<DeliveryStore['changeLane']>[2]) => {
    if (!(await deliveries.changeLane(run.webhookId, run.owner, changes))) {
      throw new LaneLost(run.webhookId);
    }
    if (changes.head !== undefined) run.lane.head = changes.head ?? undefined;
    if (changes.timer !== undefined) run.lane.timer = changes.timer ?? undefined;
    if (changes.lastCreated !== undefined) run.lane.lastCreated = changes.lastCreated;
    if (changes.replaysDone) run.lane.replays = run.lane.replays?.filter((sk) => !changes.replaysDone!.includes(sk));
  };

  /** The lane sleeps until `dueAt`: its timer, unless one for that time is running. */
  const sleepUntil = async (run: Run, dueAt: number) => {
    if (run.lane.timer?.dueAt === dueAt) return;
    const timer: LaneTimer = { token: deps.newToken(), dueAt };
    await change(run, { timer });
    try {
      await deps.timers.start(run.webhookId, timer, now());
    } catch (error) {
      // No message is on its way: the mark goes, so the retried run starts one.
      await change(run, { timer: null }).catch(() => undefined);
      throw error;
    }
  };

  /** Test events first: each its own delivery, tried once. @returns how many were sent */
  const sendTests = async (run: Run, webhook: WebhookRecord): Promise<number> => {
    const tests = await deliveries.firstQueued(run.webhookId, TEST_PREFIX, 5);
    for (const test of tests) {
      const sequence = deliverySequence(test.time, test.sk);
      const sk = `${DELIVERY_PREFIX}${sequence}`;
      const body = JSON.stringify(envelopeOf([test]));
      const record: DeliveryRecord = {
        id: deliveryIdOf(run.webhookId, sequence),
        webhookId: run.webhookId,
        sk,
        kind: 'ping',
        eventId: test.id,
        eventType: 'ping',
        status: 'pending',
        attempts: [],
        attemptCount: 0,
        bytes: Buffer.byteLength(body),
        body: gzipSync(body),
        created: test.time,
        expiresAt: test.time + KEEP_MS,
        entries: [test.sk],
      };
      await deliveries.createDelivery(record);
      await deliveries.removeQueued(run.webhookId, [test.sk]);
      const delivery = (await deliveries.getDelivery(run.webhookId, sk)) ?? record;
      if (delivery.status !== 'pending') continue;
      const tried = await attemptOnce(webhook, delivery, false);
      await deliveries.updateDelivery(run.webhookId, sk, {
        status: tried.outcome === 'delivered' ? 'delivered' : 'failed',
        attempts: tried.attempts,
        attemptCount: tried.count,
        ...(tried.outcome === 'delivered' ? { deliveredAt: tried.at } : {}),
      });
      if (tried.outcome === 'gone') await turnOff(webhook, 'gone', tried.at);
      if (tried.outcome === 'delivered' && run.lane.head) {
        // The receiver answers again: the head need not wait out its retry.
        const head = await deliveries.getDelivery(run.webhookId, run.lane.head);
        if (head?.status === 'retrying' && (head.nextAttemptAt ?? 0) > tried.at) {
          await deliveries.updateDelivery(run.webhookId, run.lane.head, { nextAttemptAt: tried.at });
        }
      }
    }
    return tests.length;
  };

  /** A person's replays: each tried once now, whatever the head is doing. */
  const sendReplays = async (run: Run, webhook: WebhookRecord) => {
    for (const sk of run.lane.replays ?? []) {
      const delivery = await deliveries.getDelivery(run.webhookId, sk);
      if (delivery && delivery.expiresAt > now()) {
        const tried = await attemptOnce(webhook, delivery, true);
        await deliveries.updateDelivery(run.webhookId, sk, {
          attempts: tried.attempts,
          attemptCount: tried.count,
          ...(tried.outcome === 'delivered'
            ? { status: 'delivered', deliveredAt: tried.at, nextAttemptAt: undefined }
            : {}),
        });
        if (tried.outcome === 'gone') await turnOff(webhook, 'gone', tried.at);
      }
      await change(run, { replaysDone: [sk] });
    }
  };

  /** The next delivery, made of the first waiting events; false when nothing waits. */
  const makeHead = async (run: Run): Promise<boolean> => {
    const read = await deliveries.firstQueued(run.webhookId, OUTBOX_PREFIX, MAX_BATCHES_PER_DELIVERY);
    // Kept 30 days: an event that waited longer (the webhook off all that time) has expired, and goes.
    const expired = read.filter((event) => event.expiresAt <= now());
    if (expired.length) {
      await deliveries.removeQueued(
        run.webhookId,
        expired.map((event) => event.sk),
      );
      log('warn', 'Webhook events expired unsent', { webhookId: run.webhookId, count: expired.length });
      if (expired.length === read.length) return read.length === MAX_BATCHES_PER_DELIVERY;
    }
    const waiting = read.filter((event) => event.expiresAt > now());
    let picked = pickEvents(waiting);
    if (!picked.length) return false;
    const created = Math.max(now(), (run.lane.lastCreated ?? 0) + 1);
    let body = JSON.stringify(envelopeOf(picked));
    let stored = gzipSync(body);
    while (stored.length > MAX_STORED_BODY_BYTES && picked.length > 1) {
      // Readings that compress badly: fewer batches, the rest go next.
      picked = picked.slice(0, Math.max(1, Math.floor(picked.length / 2)));
      body = JSON.stringify(envelopeOf(picked));
      stored = gzipSync(body);
    }
    const sequence = deliverySequence(created, picked[0]!.sk);
    const sk = `${DELIVERY_PREFIX}${sequence}`;
    const envelope = JSON.parse(body) as WebhookEventBody;
    // The head is named first: a run that stops before the record is written finds no record and makes it again.
    await change(run, { head: sk, lastCreated: created });
    await deliveries.createDelivery({
      id: deliveryIdOf(run.webhookId, sequence),
      webhookId: run.webhookId,
      sk,
      kind: 'event',
      eventId: envelope.id,
      eventType: envelope.type,
      status: 'pending',
      attempts: [],
      attemptCount: 0,
      ...(envelope.type === 'readings.received' ? { batches: picked.length } : {}),
      bytes: Buffer.byteLength(body),
      body: stored,
      created,
      // Due now: `created` may lie a millisecond ahead, to keep the log's order.
      nextAttemptAt: now(),
      expiresAt: created + KEEP_MS,
      entries: picked.map((event) => event.sk),
    });
    return true;
  };

  type Step = 'more' | 'idle';

  /** Tries the head; what the answer says decides what the lane does next. */
  const sendHead = async (run: Run, webhook: WebhookRecord): Promise<Step> => {
    const delivery = await deliveries.getDelivery(run.webhookId, run.lane.head!);
    if (!delivery) {
      // A run stopped between naming the head and writing it: its events still wait, and make it again.
      await change(run, { head: null });
      return 'more';
    }
    if (delivery.status === 'delivered' || delivery.status === 'failed') {
      await change(run, { head: null });
      return 'more';
    }
    const at = now();
    if ((delivery.nextAttemptAt ?? 0) > at) {
      await sleepUntil(run, delivery.nextAttemptAt!);
      return 'idle';
    }
    // Its events leave the waiting list only once it is tried: until then a stopped run's record still holds them.
    if (delivery.attemptCount === 0) await deliveries.removeQueued(run.webhookId, delivery.entries);
    const tried = await attemptOnce(webhook, delivery, false);
    if (tried.outcome === 'delivered') {
      await deliveries.updateDelivery(run.webhookId, delivery.sk, {
        status: 'delivered',
        deliveredAt: tried.at,
        attempts: tried.attempts,
        attemptCount: tried.count,
        nextAttemptAt: undefined,
      });
      if (webhook.failingSince !== undefined) {
        await webhooks.markAnswering(webhook.id);
        webhook.failingSince = undefined;
      }
      await change(run, { head: null, ...(run.lane.timer ? { timer: null } : {}) });
      return 'more';
    }
    const failingSince = webhook.failingSince ?? tried.at;
    if (webhook.failingSince === undefined) {
      await webhooks.markFailing(webhook.id, tried.at);
      webhook.failingSince = tried.at;
    }
    const next =
      tried.outcome === 'gone' ? undefined : nextAttemptAt(tried.count, tried.at, failingSince, deps.random());
    await deliveries.updateDelivery(run.webhookId, delivery.sk, {
      status: next === undefined ? 'waiting' : 'retrying',
      attempts: tried.attempts,
      attemptCount: tried.count,
      nextAttemptAt: next,
    });
    if (next === undefined) {
      await turnOff(webhook, tried.outcome === 'gone' ? 'gone' : 'failing', tried.at);
      if (run.lane.timer) await change(run, { timer: null });
      return 'idle';
    }
    await sleepUntil(run, next);
    return 'idle';
  };

  /** The webhook is off: its head waits, marked so, and no timer runs. */
  const park = async (run: Run) => {
    if (run.lane.head) {
      const head = await deliveries.getDelivery(run.webhookId, run.lane.head);
      if (head && (head.status === 'pending' || head.status === 'retrying')) {
        await deliveries.updateDelivery(run.webhookId, head.sk, { status: 'waiting', nextAttemptAt: undefined });
      }
    }
    if (run.lane.timer) await change(run, { timer: null });
  };

  /** One pass: tests, then (the webhook on) replays, then the head or a new one. */
  const step = async (run: Run): Promise<Step> => {
    const webhook = await webhooks.get(run.webhookId);
    if (!webhook) {
      await deliveries.removeLane(run.webhookId);
      return 'idle';
    }
    // A test answered 410 turns the webhook off: read it again after any.
    const current = (await sendTests(run, webhook)) ? ((await webhooks.get(run.webhookId)) ?? webhook) : webhook;
    if (current.status === 'disabled') {
      await park(run);
      return 'idle';
    }
    await sendReplays(run, current);
    if (run.lane.head) return sendHead(run, current);
    return (await makeHead(run)) ? 'more' : 'idle';
  };

  /** Runs the lane while held, until nothing is due or the budget is spent (a fresh message carries on). */
  const work = async (run: Run): Promise<string> => {
    let steps = 0;
    for (;;) {
      while ((await step(run)) === 'more') {
        steps += 1;
        if (run.timeUp()) {
          await sleepUntil(run, now());
          return `handed on after ${steps} steps`;
        }
      }
      const released = await deliveries.release(run.webhookId, run.owner);
      if (released !== 'again') return `${released} after ${steps} steps`;
      // An event came while the lane ran: it is held still, and goes on.
      const lane = await deliveries.getLane(run.webhookId);
      if (lane) run.lane = lane;
    }
  };

  return {
    /** What a wake message asks: run the lane now if it is free (a timer's message only if it is the lane's timer). */
    run: async (wake: LaneWake): Promise<string> => {
      const { webhookId, token } = wake;
      const at = now();
      if (token) {
        const lane = await deliveries.getLane(webhookId);
        if (lane?.timer?.token !== token) return 'stale timer';
        if (lane.timer.dueAt > at) {
          await deps.timers.hop(webhookId, lane.timer, at);
          return 'timer hopped';
        }
      }
      const owner = typeof deps.owner === 'function' ? deps.owner() : deps.owner;
      const lane = await deliveries.acquire(webhookId, owner, at, at + LEASE_MS);
      if (!lane) {
        // Another worker has the lane. A plain wake ends here: that worker sees the request when it lets go. A timer
        // must not be lost, so it comes back shortly.
        if (token) await deps.timers.hop(webhookId, { token, dueAt: at + BUSY_RETRY_MS }, at);
        return 'busy';
      }
      try {
        return await work({ webhookId, owner, lane, timeUp: deps.startBudget() });
      } catch (error) {
        if (error instanceof LaneLost) return 'lease lost';
        // Let go so the retried message (or another) can run it; the error fails the message.
        await deliveries.release(webhookId, owner).catch(() => undefined);
        throw error;
      }
    },
  };
};

/** Another worker took the lane (this one ran past its lease): this run stops. */
export class LaneLost extends Error {
  constructor(webhookId: string) {
    super(`Lost the lane of ${webhookId}`);
  }
}

export type Lanes = ReturnType<typeof createLanes>;
