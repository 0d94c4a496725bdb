import { ONLINE_WINDOW_MS } from '../../../shared/devices/presence';
import { inForce, presenceTrack, sweeper } from '../../support/alerts';
import { seedOrganization } from '../../support/organizations';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { eventually, freshDevice, ingest, type TestDevice } from '../../support/sensor-data';
import { apiAs } from '../../support/stack';
import { receiverPerTest, verifiedWith } from '../../support/webhooks';

/**
 * device.online and device.offline (docs/integrations.md, "Presence"; decision 105): a presence track in the alerts
 * area's device state, set up for the devices a webhook taking either type watches. Readings go through the ingest
 * route, the alerts sweep runs in this process at the time a test picks (the stack's own runs every 10 s beside it, at
 * the real time, when nothing is past its window yet), and the stack's worker delivers to real HTTP receivers on
 * 127.0.0.1, verified with `standardwebhooks`.
 */

const MIN = 60_000;
const sweep = sweeper();
const watching = receiverPerTest();
const notWatching = receiverPerTest();

beforeAll(() => sweep.start());
afterAll(() => sweep.stop());

/**
 * A sweep run just after now: a scheduled event's time has whole seconds, so a run "now" could be before the touch
 * the webhook change made a few milliseconds ago.
 */
const sweepNow = () => sweep.run(Date.now() + 1_000);

const reading = (device: TestDevice, timestamp: number) => ingest(device, [{ timestamp, values: { pm2_5: 12 } }]);

describe('presence webhooks', () => {
  it('send device.offline once when a watched device passes the window, device.online at its next reading; nothing for a webhook that does not take them', async () => {
    const [receiver, other] = [watching(), notWatching()];
    const owner = await freshUser({ prefix: 'wh-presence' });
    const device = await freshDevice({ ownerToken: owner.token });
    const quiet = await freshDevice({ ownerToken: owner.token });
    // Both report before the webhooks exist: a device that has never reported when its webhook's watch begins is
    // offline, silently (docs/integrations.md, "Presence"), and the stack's own sweep may begin it between the
    // webhook and a first reading, which would then be device.online.
    const lastReading = Date.now() - MIN;
    await reading(device, lastReading);
    await reading(quiet, lastReading);
    const integrations = apiAs('integrations', owner.token);
    const hook = await integrations.createWebhook({
      body: {
        url: receiver.url,
        events: ['device.online', 'device.offline'],
        target: { kind: 'device', id: device.id },
      },
    });
    await integrations.createWebhook({
      body: { url: other.url, events: ['readings.received'], target: { kind: 'device', id: quiet.id } },
    });
    await inForce();

    // The watch begins online (the last reading is in the window), telling nobody.
    await sweepNow();
    expect(await presenceTrack(device.id)).toMatchObject({ phase: 'ok' });
    expect(receiver.requests).toEqual([]);

    // Past the window: two sweeps at once, then another, send one device.offline.
    const past = Date.now() + ONLINE_WINDOW_MS + MIN;
    await Promise.all([sweep.run(past), sweep.run(past)]);
    await sweep.run(past + MIN);
    const [offline] = await eventually(
      async () => receiver.of('device.offline').length > 0 && receiver.of('device.offline'),
    );
    expect(verifiedWith(hook.secret, offline!)).toMatchObject({
      type: 'device.offline',
      version: 1,
      data: { deviceId: device.id, lastSeen: lastReading, onlineWindowMs: ONLINE_WINDOW_MS },
    });
    expect(await presenceTrack(device.id)).toMatchObject({ phase: 'firing' });

    // The next reading: device.online at once (ingest, not a sweep), with the reading's time.
    const back = Date.now();
    await reading(device, back);
    const [online] = await eventually(
      async () => receiver.of('device.online').length > 0 && receiver.of('device.online'),
    );
    expect(verifiedWith(hook.secret, online!)).toMatchObject({
      type: 'device.online',
      data: { deviceId: device.id, lastSeen: back, onlineWindowMs: ONLINE_WINDOW_MS },
    });
    expect(online!.event.id).not.toBe(offline!.event.id);
    await sweep.run(past + 2 * MIN);

    // Everything delivered: one of each, none twice by webhook-id; the other webhook heard no presence, and its
    // device has no presence track.
    const log = await eventually(async () => {
      const items = (await integrations.listDeliveries({ params: { id: hook.id }, query: { limit: 10 } })).items;
      return items.every((d) => d.status === 'delivered') && items;
    });
    expect(log.map((d) => d.eventType).sort()).toEqual(['device.offline', 'device.online']);
    expect(receiver.requests.map((r) => r.event.type)).toEqual(['device.offline', 'device.online']);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(2);
    expect(other.requests.filter((r) => r.event.type.startsWith('device.'))).toEqual([]);
    expect(await presenceTrack(quiet.id)).toBeUndefined();
  });

  it("stop tracking an organization's devices when its webhook is turned off or deleted, and start again when it is turned on", async () => {
    const receiver = watching();
    const owner = await freshUser({ prefix: 'wh-presence-off' });
    const device = await freshDevice({ ownerToken: owner.token });
    const organization = await seedOrganization(owner.id);
    await seedRelation('organization-device', organization.id, device.id);
    const integrations = apiAs('integrations', owner.token);
    const hook = await integrations.createWebhook({
      body: { url: receiver.url, events: ['device.offline'], target: { kind: 'organization', id: organization.id } },
    });
    await inForce();
    await reading(device, Date.now() - MIN);
    await sweepNow();
    expect(await presenceTrack(device.id)).toMatchObject({ phase: 'ok' });

    await integrations.updateWebhook({ params: { id: hook.id }, body: { enabled: false } });
    await sweepNow();
    expect(await presenceTrack(device.id)).toBeUndefined();

    await integrations.updateWebhook({ params: { id: hook.id }, body: { enabled: true } });
    await sweepNow();
    expect(await presenceTrack(device.id)).toMatchObject({ phase: 'ok' });

    await integrations.deleteWebhook({ params: { id: hook.id } });
    await sweepNow();
    expect(await presenceTrack(device.id)).toBeUndefined();
    // Past the window, nothing is sent for it.
    await sweep.run(Date.now() + ONLINE_WINDOW_MS + MIN);
    expect(await presenceTrack(device.id)).toBeUndefined();
    expect(receiver.requests).toEqual([]);
  });
});
