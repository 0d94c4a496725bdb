import path from 'node:path';
import { jest } from '@jest/globals';
import { startScheduler } from '../../../infra/local/scheduler';
import { alertsAs, alertsOf, inForce, presenceTrack, thresholdRule } from '../../support/alerts';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { eventually, freshDevice, ingest } from '../../support/sensor-data';
import { apiAs, apiRejection, tokenOf } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';
import { deliveryItems, type Receiver, startReceiver } from '../../support/webhooks';

/**
 * An account's deletion reaches the alerts and integrations areas (docs/users.md, "The purge"): a person with an alert
 * rule that fires and a webhook that delivers asks for their account to go; the scheduled deletion job runs weeks
 * later (in this process, as EventBridge would run it); afterwards their rule neither evaluates nor tells anyone and
 * is gone from every list staff read, their webhooks and their deliveries are gone (and the presence of the device
 * one took is watched no more), and another person's rule that named them as a recipient names them no more.
 */

const MIN = 60_000;
const DAY = 24 * MIN * 60;

let receiver: Receiver;
let scheduler: Awaited<ReturnType<typeof startScheduler>>;
let restoreEnvironment: () => void;

beforeAll(async () => {
  restoreEnvironment = useStackEnvironment();
  process.env.LOG_LEVEL ??= 'warn';
  // The jobs log a line per run, and the SQS client warns about the emulator's queue URL.
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  receiver = await startReceiver();
  scheduler = await startScheduler({
    rootDir: path.resolve(import.meta.dirname, '../../..'),
    jobs: [
      { name: 'UsersDeletionJob', entry: 'functions/users/deletion-job.ts', everyMinutes: 60 },
      { name: 'AlertsSweepJob', entry: 'functions/alerts/sweep-job.ts', everyMinutes: 60 },
    ],
  });
});

afterAll(async () => {
  await scheduler.stop();
  await receiver.stop();
  restoreEnvironment();
  jest.restoreAllMocks();
});

describe("a deleted account's alert rules and webhooks", () => {
  it('stop evaluating and delivering, and are gone from every list; others name the person no more', async () => {
    const person = await freshUser({ prefix: 'leaving' });
    const friend = await freshUser({ prefix: 'staying' });
    const [device, quietDevice, friendsDevice] = await Promise.all([
      freshDevice({ ownerToken: person.token }),
      freshDevice({ ownerToken: person.token }),
      freshDevice({ ownerToken: friend.token }),
    ]);
    // The person administers the friend's device, so the friend's rule may tell them.
    await seedRelation('device-administrator', friendsDevice.id, person.id);

    const rule = await alertsAs(person.token).createRule({ body: thresholdRule(device.id, 35) });
    const friendsRule = await alertsAs(friend.token).createRule({
      body: thresholdRule(
        friendsDevice.id,
        35,
        {},
        {
          recipients: [
            { kind: 'person', userId: person.id },
            { kind: 'role', role: 'device-owners' },
          ],
        },
      ),
    });
    const webhook = await apiAs('integrations', person.token).createWebhook({
      body: {
        url: receiver.url,
        events: ['readings.received', 'alert.fired'],
        target: { kind: 'device', id: device.id },
      },
    });
    const presenceHook = await apiAs('integrations', person.token).createWebhook({
      body: { url: receiver.url, events: ['device.offline'], target: { kind: 'device', id: quietDevice.id } },
    });
    await inForce();

    // Before: the rule fires and the webhook delivers.
    const start = Math.floor(Date.now() / MIN) * MIN - 40 * MIN;
    await ingest(device, [{ timestamp: start, values: { pm2_5: 40 } }]);
    const [firing] = await alertsOf(person.token, device.id, (items) => items[0]?.state === 'firing');
    expect(firing).toMatchObject({ ruleId: rule.id, value: 40 });
    await eventually(async () => receiver.of('alert.fired').length === 1 && receiver.of('readings.received').length);
    expect((await deliveryItems(webhook.id)).length).toBeGreaterThan(0);
    // Their other device, no rule's, has its presence watched for their webhook taking device.offline (decision 105).
    await ingest(quietDevice, [{ timestamp: Date.now() - MIN, values: { pm2_5: 12 } }]);
    await scheduler.run('AlertsSweepJob', new Date(Date.now() + 1_000));
    expect(await presenceTrack(quietDevice.id)).toMatchObject({ phase: 'ok' });

    // The person asks for their account to go; the deletion job runs once it is due.
    await apiAs('users', person.token).deleteUser({ params: { id: person.id } });
    const due = (await scheduler.run('UsersDeletionJob', new Date(Date.now() + 15 * DAY))) as { deleted: string[] };
    expect(due.deleted).toContain(person.id);

    const staffToken = await tokenOf('employee@example.com');
    const staffAlerts = alertsAs(staffToken);
    const staffIntegrations = apiAs('integrations', staffToken);

    // The rule is gone from every list staff read, and its firing alert is closed once the sweep looks.
    expect((await apiRejection(staffAlerts.getRule({ params: { id: rule.id } }))).status).toBe(404);
    expect((await staffAlerts.listRules({ query: { deviceId: device.id } })).items).toEqual([]);
    await scheduler.run('AlertsSweepJob', new Date());
    const [closed] = await alertsOf(staffToken, device.id, (items) => items[0]?.state === 'resolved');
    expect(closed).toMatchObject({ id: firing!.id, ruleId: rule.id });
    const firingNow = await staffAlerts.listEvents({ query: { scope: 'all', state: 'firing', limit: 100 } });
    expect(firingNow.items.map((alert) => alert.ruleId)).not.toContain(rule.id);

    // The webhook and everything of its delivery are gone.
    expect((await apiRejection(staffIntegrations.getWebhook({ params: { id: webhook.id } }))).status).toBe(404);
    expect(
      (await staffIntegrations.listWebhooks({ query: { targetKind: 'device', targetId: device.id } })).items,
    ).toEqual([]);
    expect(await deliveryItems(webhook.id)).toEqual([]);
    // Nobody watches the other device's presence any more: a sweep after the purge closes its track. (A run "now" could
    // be before the purge's touch: a scheduled event's time has whole seconds.)
    expect((await apiRejection(staffIntegrations.getWebhook({ params: { id: presenceHook.id } }))).status).toBe(404);
    await scheduler.run('AlertsSweepJob', new Date(Date.now() + 1_000));
    expect(await presenceTrack(quietDevice.id)).toBeUndefined();

    // The friend's rule keeps its role, without the person.
    const kept = await alertsAs(friend.token).getRule({ params: { id: friendsRule.id } });
    expect(kept.recipients).toEqual([{ kind: 'role', role: 'device-owners' }]);

    // After: a reading far past the limit on the person's device fires nothing and reaches no receiver, while the
    // same reading on the friend's device (the control: the evaluation and worker are running) fires.
    const delivered = receiver.requests.length;
    await inForce();
    await ingest(device, [{ timestamp: start + 20 * MIN, values: { pm2_5: 20 } }]);
    await ingest(device, [{ timestamp: start + 30 * MIN, values: { pm2_5: 90 } }]);
    await ingest(friendsDevice, [{ timestamp: start + 30 * MIN, values: { pm2_5: 90 } }]);
    await alertsOf(friend.token, friendsDevice.id, (items) => items[0]?.state === 'firing');
    const after = await staffAlerts.listEvents({ query: { deviceId: device.id, limit: 50 } });
    expect(after.items.map((alert) => [alert.id, alert.state])).toEqual([[firing!.id, 'resolved']]);
    expect(receiver.requests.length).toBe(delivered);
  });
});
