import { gunzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { ReadingsBatch } from '../../../shared/contracts/webhook-events';
import {
  clearBox,
  memoryDeliveries,
  memoryWebhooks,
  recordedNotices,
  recordedTimers,
  scriptedSender,
} from '../../../test/support/integrations-memory';
import { silentLog } from '../../../test/support/log';
import { readingsEvents } from '../../_shared/integrations/webhook-publisher';
import type { QueuedEvent } from '../../_shared/integrations/webhook-records';
import { createLanes, MAX_BATCHES_PER_DELIVERY, pickEvents } from './lanes';
import type { WebhookRecord } from './ports';
import { DISABLE_AFTER_MS, RETRY_DELAYS_MS } from './webhook-rules';

const T0 = Date.UTC(2026, 3, 1, 12, 0, 0);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLD_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const WEBHOOK = 'wh_aaaaaaaaaaaaaaaaaaaa';

const webhook = (overrides: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id: WEBHOOK,
  url: 'https://receiver.example/hooks',
  events: ['readings.received', 'export.ready'],
  targetKind: 'organization',
  targetId: 'org-1',
  description: '',
  status: 'enabled',
  secret: `clear:${WEBHOOK}:${SECRET}`,
  created: T0,
  createdBy: 'owner-1',
  updated: T0,
  ...overrides,
});

/** A lane over memory stores, a clock the test sets, and no jitter (random 0.5 keeps each wait as listed). */
const world = (record = webhook()) => {
  let now = T0;
  const webhooks = memoryWebhooks([record]);
  const deliveries = memoryDeliveries();
  const receiver = scriptedSender();
  const timers = recordedTimers();
  const notices = recordedNotices();
  const presenceChanged: string[] = [];
  let token = 0;
  const lanes = createLanes({
    webhooks: webhooks.store,
    deliveries: deliveries.store,
    sender: receiver.sender,
    secrets: clearBox,
    timers: timers.timers,
    notices: notices.notices,
    presence: {
      changed: async (kind, id) => {
        presenceChanged.push(`${kind}#${id}`);
      },
    },
    now: () => now,
    random: () => 0.5,
    newToken: () => `t${++token}`,
    startBudget: () => () => false,
    owner: 'worker-1',
    log: silentLog,
  });
  const events = (deviceId: string, count: number, from = T0 - 3_600_000) =>
    Array.from({ length: count }, (_, i) =>
      readingsEvents(deviceId, [{ timestamp: from + i * 60_000, values: { co2: 400 + i } }], now),
    ).flat();
  return {
    lanes,
    events,
    webhooks,
    deliveries,
    receiver,
    timers,
    notices,
    presenceChanged,
    at: (time: number) => {
      now = time;
    },
    publish: (queued: QueuedEvent[]) => deliveries.append(WEBHOOK, queued, now),
    wake: () => lanes.run({ kind: 'lane.wake', webhookId: WEBHOOK }),
    /** The lane's current timer's message arriving now. */
    fire: () => {
      const timer = deliveries.laneOf(WEBHOOK)?.timer as { token: string; dueAt: number };
      return lanes.run({ kind: 'lane.wake', webhookId: WEBHOOK, token: timer.token, dueAt: timer.dueAt });
    },
    bodies: () =>
      receiver.requests.map(
        (request) => JSON.parse(request.body) as { type: string; data: { batches: ReadingsBatch[] } },
      ),
  };
};

describe('a lane', () => {
  it('sends what waited in order, readings batches 100 to a request across devices, each device in its order', async () => {
    const w = world();
    // Two devices' minutes, interleaved in time: 250 batches in all.
    w.publish([...w.events('dev-a', 125), ...w.events('dev-b', 125, T0 - 3_600_000 + 30_000)]);
    expect(await w.wake()).toMatch(/^released/);
    const batches = w
      .bodies()
      .map((body) => body.data.batches as { deviceId: string; readings: { timestamp: number }[] }[]);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    for (const device of ['dev-a', 'dev-b']) {
      const times = batches
        .flat()
        .filter((b) => b.deviceId === device)
        .map((b) => b.readings[0]!.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times).toHaveLength(125);
    }
    expect(w.deliveries.deliveries(WEBHOOK).map((d) => [d.status, d.batches, d.attemptCount])).toEqual([
      ['delivered', 100, 1],
      ['delivered', 100, 1],
      ['delivered', 50, 1],
    ]);
    // Nothing waits any more, and the lane is free.
    expect(await w.deliveries.store.countQueued(WEBHOOK, 10)).toBe(0);
    expect(w.deliveries.laneOf(WEBHOOK)?.leaseOwner).toBeUndefined();
  });

  it('keeps a delivery within 1 MB of data and one other event to itself', () => {
    const big = (id: string): QueuedEvent => ({
      id,
      type: 'readings.received',
      time: T0,
      orderAt: T0,
      data: {},
      bytes: 300_000,
    });
    expect(pickEvents([big('a'), big('b'), big('c'), big('d')]).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    const other: QueuedEvent = { ...big('x'), type: 'export.ready', bytes: 100 };
    expect(pickEvents([other, big('a')]).map((e) => e.id)).toEqual(['x']);
    expect(pickEvents([big('a'), other, big('b')]).map((e) => e.id)).toEqual(['a']);
    expect(MAX_BATCHES_PER_DELIVERY).toBe(100);
  });

  it('signs each attempt the Standard Webhooks way, with both secrets while a rotated-out one still signs', async () => {
    const w = world(webhook({ previousSecret: `clear:${WEBHOOK}:${OLD_SECRET}`, previousSecretUntil: T0 + 60_000 }));
    w.publish(w.events('dev-a', 1));
    await w.wake();
    const [request] = w.receiver.requests;
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(request!.headers['webhook-timestamp']).toBe(String(T0 / 1000));
    expect(request!.headers['webhook-id']).toBe(w.deliveries.deliveries(WEBHOOK)[0]!.id);
    jest.useFakeTimers({ now: T0 });
    try {
      for (const secret of [SECRET, OLD_SECRET]) {
        expect(new Webhook(secret).verify(request!.body, request!.headers)).toMatchObject({
          type: 'readings.received',
        });
      }
      expect(() =>
        new Webhook('whsec_dGhlLXdyb25nLXNlY3JldC1hbHRvZ2V0aGVy').verify(request!.body, request!.headers),
      ).toThrow();
    } finally {
      jest.useRealTimers();
    }
    // Once the previous secret's day is over, only the current one signs.
    w.at(T0 + 120_000);
    w.publish(w.events('dev-a', 1, T0));
    await w.wake();
    expect(w.receiver.requests[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
  });

  it('retries on the schedule until a day of failure, then turns the webhook off and tells its owner', async () => {
    const w = world();
    w.receiver.answerWith(() => ({ statusCode: 503, durationMs: 12, response: 'busy' }));
    w.publish(w.events('dev-a', 1));
    await w.wake();
    let at = T0;
    const attempts = [T0];
    // Each timer's message comes when it is due; the waits are the schedule's (no jitter at 0.5), the last one cut
    // short so that the final try is exactly 24 hours after the first failure.
    for (;;) {
      const timer = w.deliveries.laneOf(WEBHOOK)?.timer as { dueAt: number } | undefined;
      if (!timer) break;
      at = timer.dueAt;
      w.at(at);
      await w.fire();
      attempts.push(at);
    }
    const waits = attempts.slice(1).map((time, i) => time - attempts[i]!);
    expect(waits).toEqual([...RETRY_DELAYS_MS, DISABLE_AFTER_MS - RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)]);
    expect(at - T0).toBe(DISABLE_AFTER_MS);
    const [delivery] = w.deliveries.deliveries(WEBHOOK);
    expect(delivery).toMatchObject({ status: 'waiting', attemptCount: attempts.length });
    expect(delivery!.attempts.map((a) => [a.at, a.statusCode, a.response])).toEqual(
      attempts.map((time) => [time, 503, 'busy']),
    );
    expect(w.webhooks.byId.get(WEBHOOK)).toMatchObject({
      status: 'disabled',
      disabledReason: 'failing',
      failingSince: T0,
    });
    expect(w.notices.events).toEqual([
      expect.objectContaining({ kind: 'webhook.disabled', reason: 'failing', actorId: 'owner-1', failingSince: T0 }),
    ]);
  });

  it('keeps the event waiting and the retry timer going while the webhook is on; a timer that is not the lane’s is dropped', async () => {
    const w = world();
    w.receiver.answerWith(() => ({ error: 'connect ECONNREFUSED', durationMs: 3 }));
    w.publish(w.events('dev-a', 1));
    await w.wake();
    const first = w.deliveries.laneOf(WEBHOOK)?.timer as { token: string; dueAt: number };
    expect(first.dueAt).toBe(T0 + 5_000);
    expect(w.timers.sent).toEqual([{ webhookId: WEBHOOK, timer: first, now: T0, hop: false }]);
    // A stale timer (not the lane's) does nothing; an event's wake before the retry is due sends nothing.
    expect(await w.lanes.run({ kind: 'lane.wake', webhookId: WEBHOOK, token: 'old', dueAt: T0 })).toBe('stale timer');
    w.publish(w.events('dev-a', 1, T0));
    expect(await w.wake()).toMatch(/^released/);
    expect(w.receiver.requests).toHaveLength(1);
    // A timer that comes early hops on.
    w.at(T0 + 1_000);
    expect(await w.fire()).toBe('timer hopped');
    expect(w.timers.sent.at(-1)).toMatchObject({ hop: true, timer: first });
    // Due: the same delivery again (same webhook-id), and the event that came meanwhile still waits behind it.
    w.receiver.answerWith(() => ({ statusCode: 200, durationMs: 4, response: 'ok' }));
    w.at(T0 + 5_000);
    await w.fire();
    const ids = w.receiver.requests.map((r) => r.headers['webhook-id']);
    expect(ids[0]).toBe(ids[1]);
    expect(ids).toHaveLength(3);
    expect(w.deliveries.deliveries(WEBHOOK).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    expect(w.webhooks.byId.get(WEBHOOK)!.failingSince).toBeUndefined();
  });

  it("turned off by 410 Gone, a webhook taking device.offline stops its target's presence watch", async () => {
    const w = world(webhook({ events: ['readings.received', 'device.offline'] }));
    w.receiver.answerWith(() => ({ statusCode: 410, durationMs: 4, response: 'gone' }));
    w.publish(w.events('dev-a', 1));
    await w.wake();
    expect(w.webhooks.byId.get(WEBHOOK)).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    expect(w.presenceChanged).toEqual(['organization#org-1']);
  });

  it('is turned off by 410 Gone at once, and a timer whose lane is held comes back shortly', async () => {
    const w = world();
    w.receiver.answerWith(() => ({ statusCode: 410, durationMs: 4, response: 'gone' }));
    w.publish(w.events('dev-a', 2));
    await w.wake();
    expect(w.receiver.requests).toHaveLength(1);
    expect(w.webhooks.byId.get(WEBHOOK)).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    expect(w.notices.events).toEqual([expect.objectContaining({ reason: 'gone' })]);
    // It took no presence events: the alerts area's watch is not touched.
    expect(w.presenceChanged).toEqual([]);
    expect(w.deliveries.deliveries(WEBHOOK)[0]!.status).toBe('waiting');
    expect(w.deliveries.laneOf(WEBHOOK)?.timer).toBeUndefined();

    const held = world();
    held.receiver.answerWith(() => ({ statusCode: 500, durationMs: 4, response: '' }));
    held.publish(held.events('dev-a', 1));
    await held.wake();
    await held.deliveries.store.acquire(WEBHOOK, 'someone-else', T0, T0 + 60_000);
    held.at(T0 + 5_000);
    expect(await held.fire()).toBe('busy');
    expect(held.timers.sent.at(-1)).toMatchObject({ hop: true, timer: { dueAt: T0 + 10_000 } });
  });

  it('sends a test first, even while the head waits to retry or the webhook is off; a test that passes makes the head due', async () => {
    const w = world();
    w.receiver.answerWith(() => ({ statusCode: 502, durationMs: 4, response: '' }));
    w.publish(w.events('dev-a', 1));
    await w.wake();
    w.receiver.answerWith(() => ({ statusCode: 204, durationMs: 4, response: '' }));
    w.at(T0 + 1_000);
    w.publish([
      { id: 'evt_ping', type: 'ping', time: T0 + 1_000, orderAt: T0 + 1_000, data: { webhookId: WEBHOOK }, bytes: 10 },
    ]);
    await w.wake();
    expect(w.bodies().map((body) => body.type)).toEqual(['readings.received', 'ping', 'readings.received']);
    expect(w.deliveries.deliveries(WEBHOOK).map((d) => [d.eventType, d.status])).toEqual([
      ['readings.received', 'delivered'],
      ['ping', 'delivered'],
    ]);

    const off = world(webhook({ status: 'disabled', disabledReason: 'owner' }));
    off.publish([{ id: 'evt_p2', type: 'ping', time: T0, orderAt: T0, data: {}, bytes: 2 }]);
    off.publish(off.events('dev-a', 1));
    await off.wake();
    expect(off.bodies().map((body) => body.type)).toEqual(['ping']);
  });

  it('parks what it holds while its owner has it off, and sends it (and what came since) once it is on again', async () => {
    const w = world();
    w.receiver.answerWith(() => ({ statusCode: 500, durationMs: 4, response: '' }));
    w.publish(w.events('dev-a', 1));
    await w.wake();
    await w.webhooks.store.change(WEBHOOK, { status: 'disabled', disabledReason: 'owner' }, T0);
    await w.wake();
    expect(w.deliveries.deliveries(WEBHOOK)[0]).toMatchObject({ status: 'waiting' });
    expect(w.deliveries.laneOf(WEBHOOK)?.timer).toBeUndefined();
    w.publish(w.events('dev-a', 2, T0));
    await w.webhooks.store.change(WEBHOOK, { status: 'enabled', disabledReason: null }, T0);
    await w.deliveries.store.updateDelivery(WEBHOOK, w.deliveries.deliveries(WEBHOOK)[0]!.sk, {
      status: 'pending',
      nextAttemptAt: T0,
    });
    w.receiver.answerWith(() => ({ statusCode: 200, durationMs: 4, response: '' }));
    await w.wake();
    expect(w.deliveries.deliveries(WEBHOOK).map((d) => [d.status, d.batches])).toEqual([
      ['delivered', 1],
      ['delivered', 2],
    ]);
  });

  it('replays a delivery a person asked for, as a manual attempt with the same webhook-id', async () => {
    const w = world();
    w.publish(w.events('dev-a', 1));
    await w.wake();
    const [delivery] = w.deliveries.deliveries(WEBHOOK);
    await w.deliveries.store.addReplay(WEBHOOK, delivery!.sk);
    w.at(T0 + 60_000);
    await w.wake();
    expect(w.receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([delivery!.id, delivery!.id]);
    expect(w.deliveries.deliveries(WEBHOOK)[0]!.attempts.map((a) => [a.at, a.manual ?? false])).toEqual([
      [T0, false],
      [T0 + 60_000, true],
    ]);
    expect(w.deliveries.laneOf(WEBHOOK)?.replays).toEqual(new Set());
  });

  it('makes a delivery again when a run stopped after naming it and before writing it, and sends its events once', async () => {
    const w = world();
    w.publish(w.events('dev-a', 3));
    // A run that stopped: the head named, no record, the lease gone.
    await w.deliveries.store.acquire(WEBHOOK, 'gone-worker', T0 - 100_000, T0 - 1);
    await w.deliveries.store.changeLane(WEBHOOK, 'gone-worker', { head: 'd#00000000000000', lastCreated: T0 - 5 });
    await w.wake();
    expect(w.bodies().flatMap((body) => body.data.batches)).toHaveLength(3);
    expect(w.deliveries.deliveries(WEBHOOK)).toHaveLength(1);
  });

  it('stores the body gzip’d and sends it byte for byte on every attempt', async () => {
    const w = world();
    w.receiver.answerWith(() => ({ statusCode: 500, durationMs: 4, response: '' }));
    w.publish(w.events('dev-a', 2));
    await w.wake();
    w.at(T0 + 5_000);
    await w.fire();
    const [delivery] = w.deliveries.deliveries(WEBHOOK);
    const stored = gunzipSync(delivery!.body).toString('utf8');
    expect(w.receiver.requests.map((r) => r.body)).toEqual([stored, stored]);
    expect(delivery!.bytes).toBe(Buffer.byteLength(stored));
  });

  it('is held by one run at a time when one process runs several messages at once (a name per run)', async () => {
    const webhooks = memoryWebhooks([webhook()]);
    const deliveries = memoryDeliveries();
    const sent: string[] = [];
    let runs = 0;
    const lanes = createLanes({
      webhooks: webhooks.store,
      deliveries: deliveries.store,
      sender: {
        // A slow receiver: the second message arrives while the first run is sending.
        send: async (request) => {
          sent.push(request.headers['webhook-id']!);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { statusCode: 204, durationMs: 20, response: '' };
        },
      },
      secrets: clearBox,
      timers: recordedTimers().timers,
      notices: recordedNotices().notices,
      presence: { changed: async () => undefined },
      now: () => T0,
      random: () => 0.5,
      newToken: () => 't',
      startBudget: () => () => false,
      owner: () => `run-${++runs}`,
      log: silentLog,
    });
    deliveries.append(WEBHOOK, readingsEvents('dev-a', [{ timestamp: T0 - 60_000, values: { co2: 1 } }], T0), T0);
    const wake = { kind: 'lane.wake' as const, webhookId: WEBHOOK };
    const outcomes = await Promise.all([lanes.run(wake), lanes.run(wake)]);
    expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});
