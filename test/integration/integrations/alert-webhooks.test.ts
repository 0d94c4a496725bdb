import { notificationIdOf } from '../../../functions/notifications/domain/triggers';
import { alertsAs, alertsOf, thresholdRule } from '../../support/alerts';
import { bannersAbout } from '../../support/notifications';
import { seedOrganization } from '../../support/organizations';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { eventually, freshDevice, ingest } from '../../support/sensor-data';
import { apiAs, uniqueId } from '../../support/stack';
import { receiverPerTest, verifiedWith } from '../../support/webhooks';

/**
 * alert.fired and alert.resolved (docs/integrations.md, docs/alerts.md "Webhooks"): readings through the ingest route
 * cross a threshold rule's limit and come back under its clear level; the alerts evaluation at ingest hands each
 * change to the webhooks of the device and its organization, which the stack's worker delivers to real HTTP receivers
 * on 127.0.0.1, verified with `standardwebhooks`.
 */

const MIN = 60_000;

const receiverOfDevice = receiverPerTest();
const receiverOfOrganization = receiverPerTest();

/** A rule applies to readings from a second after it is saved (each instance asks whether rules changed once a second). */
const inForce = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe('alert webhooks', () => {
  it("send a signed alert.fired when a reading crosses the limit and alert.resolved below the clear level, under the alert event's id", async () => {
    const [deviceReceiver, organizationReceiver] = [receiverOfDevice(), receiverOfOrganization()];
    const owner = await freshUser({ prefix: 'wh-alert' });
    const device = await freshDevice({ ownerToken: owner.token });
    const { id: organization } = await seedOrganization(owner.id, {
      id: uniqueId('wh-alert-org'),
      name: 'Alert webhook organization',
    });
    await seedRelation('organization-device', organization, device.id);
    const integrations = apiAs('integrations', owner.token);
    const onDevice = await integrations.createWebhook({
      body: {
        url: deviceReceiver.url,
        events: ['alert.fired', 'alert.resolved'],
        target: { kind: 'device', id: device.id },
      },
    });
    // The organization's webhook takes firings only: it hears of neither the resolution nor the readings.
    const onOrganization = await integrations.createWebhook({
      body: {
        url: organizationReceiver.url,
        events: ['alert.fired'],
        target: { kind: 'organization', id: organization },
      },
    });
    const rule = await alertsAs(owner.token).createRule({ body: thresholdRule(device.id, 35) });
    await inForce();

    const start = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
    for (const [i, v] of [20, 40, 33, 30].entries()) {
      await ingest(device, [{ timestamp: start + i * MIN, values: { pm2_5: v } }]);
    }
    const [alert] = await alertsOf(owner.token, device.id, (items) => items[0]?.state === 'resolved');

    const [fired, resolved] = await eventually(async () => {
      const got = [...deviceReceiver.of('alert.fired'), ...deviceReceiver.of('alert.resolved')];
      return got.length === 2 && got;
    });
    expect(verifiedWith(onDevice.secret, fired!)).toMatchObject({
      type: 'alert.fired',
      version: 1,
      time: new Date(start + MIN).toISOString(),
      data: {
        alertId: alert!.id,
        ruleId: rule.id,
        ruleName: rule.name,
        deviceId: device.id,
        condition: 'threshold',
        measurement: 'pm2_5',
        value: 40,
        limit: 35,
        firedAt: start + MIN,
      },
    });
    expect(fired!.event.data).not.toHaveProperty('resolvedAt');
    expect(verifiedWith(onDevice.secret, resolved!)).toMatchObject({
      type: 'alert.resolved',
      data: { alertId: alert!.id, value: 30, limit: 35, firedAt: start + MIN, resolvedAt: start + 3 * MIN },
    });
    // In order, and each under the id of the alert event its notification was made from.
    expect(fired!.at).toBeLessThanOrEqual(resolved!.at);
    const banners = await bannersAbout(owner.id, rule.name, 2);
    expect(banners.map((b) => b.notificationId).sort()).toEqual(
      [notificationIdOf(fired!.event.id), notificationIdOf(resolved!.event.id)].sort(),
    );

    const [orgFired] = await eventually(
      async () => organizationReceiver.of('alert.fired').length > 0 && organizationReceiver.of('alert.fired'),
    );
    expect(verifiedWith(onOrganization.secret, orgFired!)).toMatchObject({
      id: fired!.event.id,
      data: { alertId: alert!.id },
    });

    // The crossing batch sent again: the alert does not fire again, so nothing more waits for the webhook (ingest
    // stores a webhook's events before it answers) and its log holds the two deliveries only.
    await ingest(device, [{ timestamp: start + MIN, values: { pm2_5: 40 } }]);
    await ingest(device, [{ timestamp: start + 4 * MIN, values: { pm2_5: 25 } }]);
    expect((await integrations.getWebhook({ params: { id: onDevice.id } })).waiting).toBe(0);
    const log = await eventually(async () => {
      const items = (await integrations.listDeliveries({ params: { id: onDevice.id }, query: { limit: 10 } })).items;
      return items.every((d) => d.status === 'delivered') && items;
    });
    expect(log.map((d) => d.eventType).sort()).toEqual(['alert.fired', 'alert.resolved']);
    expect(deviceReceiver.requests.map((r) => r.event.type).sort()).toEqual(['alert.fired', 'alert.resolved']);
    expect(organizationReceiver.requests.map((r) => r.event.type)).toEqual(['alert.fired']);
  });
});
