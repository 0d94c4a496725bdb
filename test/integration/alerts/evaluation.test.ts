import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { alertBanners, alertsAs, alertsOf, inForce, sweeper, thresholdRule } from '../../support/alerts';
import { freshUser } from '../../support/people';
import { freshDevice, ingest, type TestDevice } from '../../support/sensor-data';
import { documentClient, stack } from '../../support/stack';

/**
 * Alerts as they happen, through the real entry points (docs/alerts.md): readings through the ingest route, the
 * sweep run in this process at the time a test picks (the stack's own runs every 10 s beside it), the notifications
 * worker's banners. Times are picked relative to now and away from any edge; no test waits out the minutes it tests.
 */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const sweep = sweeper();

beforeAll(() => sweep.start());
afterAll(() => sweep.stop());

/** Readings one at a time, each its own batch, as a device reporting every minute sends them. */
const report = async (device: TestDevice, readings: { t: number; v: number }[]) => {
  for (const { t, v } of readings) await ingest(device, [{ timestamp: t, values: { pm2_5: v } }]);
};

const setUp = async (prefix: string) => {
  const owner = await freshUser({ prefix });
  const device = await freshDevice({ ownerToken: owner.token });
  return { owner, device, alerts: alertsAs(owner.token) };
};

describe('threshold rules', () => {
  it('fire once and resolve once, with hysteresis; late, out-of-order and resent readings change nothing', async () => {
    const { owner, device, alerts } = await setUp('alert-threshold');
    const rule = await alerts.createRule({ body: thresholdRule(device.id, 35) });
    await inForce();
    const start = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
    await report(device, [
      { t: start, v: 20 },
      { t: start + MIN, v: 40 },
      // Below the limit, above the clear level (31.5): still firing.
      { t: start + 2 * MIN, v: 33 },
      { t: start + 3 * MIN, v: 38 },
      { t: start + 4 * MIN, v: 30 },
    ]);
    const [alert] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'resolved');
    expect(alert).toMatchObject({
      ruleId: rule.id,
      ruleName: rule.name,
      state: 'resolved',
      startedAt: start + MIN,
      firedAt: start + MIN,
      resolvedAt: start + 4 * MIN,
      value: 40,
      resolvedValue: 30,
      limit: 35,
      clearLevel: 31.5,
      measurement: 'pm2_5',
    });
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'resolved']);

    // A backfill of two hours ago, a reading older than the device's last, the crossing batch again.
    await report(device, [{ t: start - 90 * MIN, v: 99 }]);
    await report(device, [{ t: start + 3.5 * MIN, v: 99 }]);
    await report(device, [{ t: start + MIN, v: 40 }]);
    expect((await alerts.listEvents({ query: { deviceId: device.id } })).items).toHaveLength(1);
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'resolved']);
  });

  it('forSeconds: a dip withdraws the pending alert; held long enough it fires, timed from its first reading', async () => {
    const { owner, device, alerts } = await setUp('alert-for');
    const rule = await alerts.createRule({ body: thresholdRule(device.id, 35, { forSeconds: 120 }) });
    await inForce();
    const start = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
    await report(device, [
      { t: start, v: 40 },
      { t: start + MIN, v: 41 },
    ]);
    const [pending] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'pending');
    expect(pending).toMatchObject({ startedAt: start, state: 'pending' });
    expect(pending!.firedAt).toBeUndefined();
    await report(device, [{ t: start + 2 * MIN, v: 20 }]);
    await alertsOf(owner.token, device.id, (items) => items.length === 0);
    await report(device, [
      { t: start + 3 * MIN, v: 40 },
      { t: start + 4 * MIN, v: 40 },
      { t: start + 5 * MIN, v: 40 },
    ]);
    const [firing] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'firing');
    expect(firing).toMatchObject({ startedAt: start + 3 * MIN, firedAt: start + 5 * MIN });
    expect(await alertBanners(owner.id, rule.name, 1)).toEqual(['firing']);
  });

  it("keep the device record's rest marks: at rest, busy before the alert fires, at rest again once it resolves", async () => {
    const { owner, device, alerts } = await setUp('alert-rest');
    const rule = await alerts.createRule({ body: thresholdRule(device.id, 35) });
    await inForce();
    const marks = async () => {
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: stack().tables.devices!, Key: { id: device.id }, ConsistentRead: true }),
      );
      return { atRest: Item?.alertsAtRest as number | undefined, busy: Item?.alertsBusy as number | undefined };
    };
    const start = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
    await report(device, [{ t: start, v: 20 }]);
    const calm = await marks();
    expect(calm.atRest).toEqual(expect.any(Number));
    expect(calm.busy).toBeUndefined();
    // At rest, readings under the limit read no state; one past it still fires, and the record is busy by then.
    await report(device, [
      { t: start + MIN, v: 25 },
      { t: start + 2 * MIN, v: 40 },
    ]);
    await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'firing');
    const firing = await marks();
    expect(firing.busy).toBeGreaterThan(calm.atRest!);
    expect(firing.atRest).toBe(calm.atRest);
    // Still past the clear level: firing, read each time (not at rest); under it, resolved and at rest again.
    await report(device, [
      { t: start + 3 * MIN, v: 33 },
      { t: start + 4 * MIN, v: 30 },
    ]);
    await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'resolved');
    const resolved = await marks();
    expect(resolved.atRest).toBeGreaterThanOrEqual(resolved.busy!);
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'resolved']);
  });

  it('two evaluations of the same crossing at once fire once', async () => {
    const { owner, device, alerts } = await setUp('alert-race');
    const rule = await alerts.createRule({ body: thresholdRule(device.id, 35) });
    await inForce();
    const at = Math.floor(Date.now() / MIN) * MIN - 5 * MIN;
    const batch = [{ timestamp: at, values: { pm2_5: 55 } }];
    await Promise.all([ingest(device, batch), ingest(device, batch), ingest(device, batch)]);
    const items = await alertsOf(owner.token, device.id, (found) => found.length > 0);
    expect(items.map((a) => a.state)).toEqual(['firing']);
    expect(await alertBanners(owner.id, rule.name, 1)).toEqual(['firing']);
  });

  it('reminds while firing and unacknowledged; an acknowledgement (who, when) stops the reminders', async () => {
    const { owner, device, alerts } = await setUp('alert-remind');
    const rule = await alerts.createRule({ body: thresholdRule(device.id, 35, {}, { remindEverySeconds: 300 }) });
    await inForce();
    await report(device, [{ t: Math.floor(Date.now() / MIN) * MIN - MIN, v: 60 }]);
    const [firing] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'firing');
    await sweep.run(Date.now() + 6 * MIN);
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'still firing']);
    const before = Date.now();
    const acknowledged = await alerts.acknowledgeEvent({ params: { id: firing!.id } });
    expect(acknowledged).toMatchObject({ id: firing!.id, acknowledgedBy: owner.id, reminders: 1, state: 'firing' });
    expect(acknowledged.acknowledgedAt).toBeGreaterThanOrEqual(before);
    await sweep.run(Date.now() + 20 * MIN);
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'still firing']);
    // Acknowledged twice: the first stays.
    const again = await alerts.acknowledgeEvent({ params: { id: firing!.id } });
    expect(again.acknowledgedAt).toBe(acknowledged.acknowledgedAt);
  });
});

describe('silence rules', () => {
  it('fire once when the device is past its time (two sweeps at once), and resolve on its next reading', async () => {
    const { owner, device, alerts } = await setUp('alert-silence');
    const lastReading = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
    await report(device, [{ t: lastReading, v: 10 }]);
    const rule = await alerts.createRule({
      body: {
        name: 'Silent device',
        target: { kind: 'device', id: device.id },
        condition: { kind: 'silence', afterSeconds: 120 },
        enabled: true,
      },
    });
    await Promise.all([sweep.run(), sweep.run()]);
    const [fired] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'firing');
    expect(fired).toMatchObject({ condition: 'silence', startedAt: lastReading + 2 * MIN, afterSeconds: 120 });
    await sweep.run();
    expect((await alertBanners(owner.id, rule.name, 1)).filter((t) => t === 'firing')).toHaveLength(1);

    const next = Date.now();
    await report(device, [{ t: next, v: 10 }]);
    const [resolved] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'resolved');
    expect(resolved!.resolvedAt).toBe(next);
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'resolved']);
  });
});

describe('subscription rules', () => {
  it("fire when the device's trial ends within the days, and resolve once the plan runs on", async () => {
    const { owner, device, alerts } = await setUp('alert-plan');
    const now = Date.now();
    const plan = (item: Record<string, unknown>) =>
      documentClient().send(
        new PutCommand({
          TableName: stack().tables.deviceSubscriptions!,
          Item: { deviceId: device.id, tier: 'tier-1', updated: Date.now(), ...item },
        }),
      );
    await plan({ status: 'trialing', trialEnd: now + 2 * DAY, currentPeriodEnd: now + 2 * DAY });
    const rule = await alerts.createRule({
      body: {
        name: 'Plan ends',
        target: { kind: 'device', id: device.id },
        condition: { kind: 'subscription', daysBefore: 3 },
        enabled: true,
      },
    });
    await sweep.run();
    const [fired] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'firing');
    expect(fired).toMatchObject({ condition: 'subscription', daysBefore: 3, endsAt: now + 2 * DAY });
    await plan({ status: 'active', currentPeriodEnd: now + 30 * DAY });
    await sweep.run(Date.now() + 61 * MIN);
    await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'resolved');
    expect(await alertBanners(owner.id, rule.name, 2)).toEqual(['firing', 'resolved']);
  });
});
