import { jest } from '@jest/globals';
import { createIntegrationsDeps, readIntegrationsEnv } from '../../../functions/integrations/deps';
import { DISABLE_AFTER_MS, JITTER, RETRY_DELAYS_MS } from '../../../functions/integrations/domain/webhook-rules';
import { createDeliveryStore } from '../../../functions/integrations/store/delivery-store';
import type { Banner } from '../../../shared/contracts/notifications';
import { mailsTo, mailText } from '../../support/mail';
import { waitForBanner } from '../../support/notifications';
import { freshUser } from '../../support/people';
import { eventually, freshDevice, ingest } from '../../support/sensor-data';
import { apiAs, documentClient, stack } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';
import { laneOf, receiverPerTest, verifiedWith } from '../../support/webhooks';

/**
 * A day of retries on a fixed clock (docs/integrations.md, "Delivery"): no real hour is waited out. The webhook is made
 * and its events stored through the gateway; its lane is then run in this process by the area's own lanes (the same
 * stores, queue and HTTP sender as the worker), with a clock the test moves from one retry timer to the next. The
 * clock starts a week ahead, so the stack's own worker, which keeps the real time, never finds a retry due.
 */

const OWNER = 'fixed-clock-test';
const MINUTE = 60_000;

const receiver = receiverPerTest();
let restore: () => void;
beforeAll(() => {
  restore = useStackEnvironment();
});
afterAll(() => restore());

describe('a webhook whose receiver fails', () => {
  it('is retried with backoff for 24 hours, then turned off with a notice; turned on, it receives what waited, in order', async () => {
    const owner = await freshUser({ prefix: 'wh-retry' });
    const device = await freshDevice({ ownerToken: owner.token });
    const integrations = apiAs('integrations', owner.token);
    receiver().answerWith(() => ({ status: 503, body: 'down for maintenance' }));
    const made = await integrations.createWebhook({
      body: { url: receiver().url, events: ['readings.received'], target: { kind: 'device', id: device.id } },
    });
    // Held before anything waits: the stack's worker finds the lane taken and leaves it to this test.
    const deliveries = createDeliveryStore({ db: documentClient(), tableName: stack().tables.webhookDeliveries! });
    expect(await deliveries.acquire(made.id, OWNER, Date.now(), Date.UTC(2100, 0, 1))).toBeDefined();
    // The secret rotated now (the previous one signs for a day of real time, long over on the test's clock).
    const rotated = await integrations.rotateSecret({ params: { id: made.id } });

    const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
    await ingest(device, [{ timestamp: minute - 3 * MINUTE, values: { co2: 1 } }]);
    await ingest(device, [{ timestamp: minute - 2 * MINUTE, values: { co2: 2 } }]);

    let clock = Date.now() + 7 * 24 * 60 * MINUTE;
    const { lanes } = createIntegrationsDeps(readIntegrationsEnv(), { now: () => clock, owner: OWNER });
    const start = clock;
    await lanes.run({ kind: 'lane.wake', webhookId: made.id });
    // Each retry: the lane's timer, taken when it is due.
    for (let step = 0; step < 20; step++) {
      const lane = await laneOf(made.id);
      if (!lane?.timer) break;
      clock = lane.timer.dueAt;
      await lanes.run({ kind: 'lane.wake', webhookId: made.id, token: lane.timer.token, dueAt: lane.timer.dueAt });
    }

    const [delivery] = (await integrations.listDeliveries({ params: { id: made.id } })).items;
    const times = delivery!.attempts.map((attempt) => attempt.at);
    expect(times[0]).toBe(start);
    const waits = times.slice(1).map((time, i) => time - times[i]!);
    // The schedule's waits, each within its jitter; the last one cut so that the final try is 24 h after the first.
    for (const [i, wait] of waits.slice(0, RETRY_DELAYS_MS.length).entries()) {
      expect(wait).toBeGreaterThanOrEqual(Math.floor(RETRY_DELAYS_MS[i]! * (1 - JITTER)));
      expect(wait).toBeLessThanOrEqual(Math.ceil(RETRY_DELAYS_MS[i]! * (1 + JITTER)));
    }
    expect(times.at(-1)! - start).toBe(DISABLE_AFTER_MS);
    expect(delivery).toMatchObject({ status: 'waiting', batches: 2, attemptCount: times.length });
    expect(delivery!.attempts.every((a) => a.statusCode === 503 && a.response === 'down for maintenance')).toBe(true);
    // Every try reached the receiver as the same message.
    expect(receiver().requests.map((r) => r.headers['webhook-id'])).toEqual(times.map(() => delivery!.id));

    // Signed with the new secret only (the old one's day is over on this clock); a receiver keeping the old one
    // refuses it, and a receiver whose clock is a week behind refuses it as too new (replays are refused the same way).
    const last = receiver().requests.at(-1)!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    jest.useFakeTimers({ now: times.at(-1)!, doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval'] });
    try {
      expect(verifiedWith(rotated.secret, last)).toMatchObject({
        type: 'readings.received',
      });
      expect(() => verifiedWith(made.secret, last)).toThrow();
    } finally {
      jest.useRealTimers();
    }
    expect(() => verifiedWith(rotated.secret, last)).toThrow(/timestamp/i);

    // Off, and its owner told by banner and e-mail, with the link to its log.
    const off = await integrations.getWebhook({ params: { id: made.id } });
    expect(off).toMatchObject({ status: 'disabled', disabledReason: 'failing', failingSince: start });
    const banner = await waitForBanner(owner.id, (b: Banner) => b.title.startsWith('Webhook turned off'));
    // Read by staff (waitForBanner), so the link is the /admin one; its owner's reads /dashboard/webhooks/….
    expect(banner.body).toContain(`/webhooks/${made.id}">its delivery log</a>`);
    expect(banner.body).toContain('24 hours');
    expect(mailText((await mailsTo(owner.email, 1, 20_000))[0]!)).toContain(`/webhooks/${made.id}`);

    // What comes while it is off waits (it failed: its events are kept), and goes once it is on again, in order.
    await ingest(device, [{ timestamp: minute - MINUTE, values: { co2: 3 } }]);
    await ingest(device, [{ timestamp: minute, values: { co2: 4 } }]);
    expect((await integrations.getWebhook({ params: { id: made.id } })).waiting).toBe(2);
    receiver().answerWith(() => ({ status: 200, body: 'ok' }));
    const before = receiver().requests.length;
    await integrations.updateWebhook({ params: { id: made.id }, body: { enabled: true } });
    const arrived = await eventually(async () => {
      const got = receiver().requests.slice(before);
      return got.flatMap((r) => r.event.data.batches).length === 4 && got;
    });
    expect(arrived[0]!.headers['webhook-id']).toBe(delivery!.id);
    expect(arrived.flatMap((r) => r.event.data.batches.map((b) => b.readings[0]!.values.co2))).toEqual([1, 2, 3, 4]);
    const log = (await integrations.listDeliveries({ params: { id: made.id } })).items;
    expect(log.every((d) => d.status === 'delivered')).toBe(true);
    expect((await integrations.getWebhook({ params: { id: made.id } })).failingSince).toBeUndefined();
  });
});
