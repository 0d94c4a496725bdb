import type { Banner } from '../../../shared/contracts/notifications';
import { MESSAGES } from '../../../shared/messages';
import { buyTier } from '../../support/billing';
import { mailsTo, mailText } from '../../support/mail';
import { waitForBanner } from '../../support/notifications';
import { seedOrganization } from '../../support/organizations';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { eventually, freshDevice, ingest, setTier } from '../../support/sensor-data';
import { apiAs, apiRejection, tokenOf, uniqueId } from '../../support/stack';
import { deliveryItems, receiverPerTest, startReceiver, verifiedWith } from '../../support/webhooks';

/**
 * Webhooks through the local gateway (docs/integrations.md): made with the integrations API, delivered by the stack's
 * own worker to a real HTTP receiver on 127.0.0.1, verified with the `standardwebhooks` package as a customer's
 * receiver would. Retries over a day run on a fixed clock in retries.test.ts; the cloud's address rules in ssrf.test.ts.
 */

const MINUTE = 60_000;
/** Whole minutes an hour back: stored, and clear of the hour the test runs in. */
const minutesAgo = (n: number) => Math.floor(Date.now() / MINUTE) * MINUTE - n * MINUTE;

const receiver = receiverPerTest();

/** The sort keys the deliveries table holds under a webhook's id. */
const deliveryKeys = async (webhookId: string): Promise<string[]> =>
  (await deliveryItems(webhookId)).map((item) => String(item.sk));

describe('a webhook of a device', () => {
  it('is signed the Standard Webhooks way, carries stored batches in order, and keeps each attempt in its log', async () => {
    const device = await freshDevice();
    const integrations = apiAs('integrations', device.ownerToken);
    const made = await integrations.createWebhook({
      body: { url: receiver().url, events: ['readings.received'], target: { kind: 'device', id: device.id } },
    });
    expect(made.secret).toMatch(/^whsec_/);
    const read = await integrations.getWebhook({ params: { id: made.id } });
    expect(read).toMatchObject({ id: made.id, status: 'enabled', url: receiver().url });
    expect(read).not.toHaveProperty('secret');

    // A test first: a ping, verified with the secret; a receiver holding another secret refuses it.
    const { eventId } = await integrations.testWebhook({ params: { id: made.id } });
    const [ping] = await eventually(async () => receiver().of('ping').length > 0 && receiver().of('ping'));
    expect(verifiedWith(made.secret, ping!)).toMatchObject({ id: eventId, type: 'ping', version: 1 });
    expect(() => verifiedWith('whsec_dGhpcy1pcy1ub3QtdGhlLXNlY3JldC1hdC1hbGw=', ping!)).toThrow();

    // Three batches, sent one after another: each reaches the receiver, in the readings' order.
    const times = [minutesAgo(3), minutesAgo(2), minutesAgo(1)];
    for (const [i, timestamp] of times.entries()) await ingest(device, [{ timestamp, values: { co2: 400 + i } }]);
    const requests = await eventually(async () => {
      const got = receiver().of('readings.received');
      return got.flatMap((r) => r.event.data.batches).length === 3 && got;
    });
    const batches = requests.flatMap((request) => {
      expect(verifiedWith(made.secret, request)).toMatchObject({ type: 'readings.received' });
      return request.event.data.batches;
    });
    expect(batches.map((b) => [b.deviceId, b.readings[0]!.timestamp, b.readings[0]!.values.co2])).toEqual(
      times.map((t, i) => [device.id, t, 400 + i]),
    );

    // The log: newest first, each attempt with its time, status and duration.
    const log = await integrations.listDeliveries({ params: { id: made.id }, query: { limit: 10 } });
    expect(log.items.map((d) => d.eventType)).toEqual(
      [...requests.map(() => 'readings.received'), 'ping'].slice(0, log.items.length),
    );
    for (const delivery of log.items) {
      expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 1 });
      expect(delivery.attempts[0]).toMatchObject({ statusCode: 204, durationMs: expect.any(Number) });
    }
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual(
      log.items
        .filter((d) => d.eventType === 'readings.received')
        .map((d) => d.id)
        .reverse(),
    );

    // Replayed: the same message (same webhook-id) again, a manual attempt in the log.
    const first = log.items.find((d) => d.eventType === 'readings.received')!;
    await integrations.replayDelivery({ params: { id: first.id } });
    await eventually(async () => receiver().requests.filter((r) => r.headers['webhook-id'] === first.id).length === 2);
    const replayed = await eventually(async () => {
      const items = (await integrations.listDeliveries({ params: { id: made.id }, query: { limit: 10 } })).items;
      const again = items.find((d) => d.id === first.id)!;
      return again.attempts.length === 2 && again;
    });
    expect(replayed.attempts[1]).toMatchObject({ manual: true, statusCode: 204 });

    // Deleted: its lane (and whatever waited in it) goes with it; its log's items stay until they expire.
    expect(await deliveryKeys(made.id)).toContain('lane');
    await integrations.deleteWebhook({ params: { id: made.id } });
    const left = await deliveryKeys(made.id);
    expect(left.filter((sk) => !sk.startsWith('d#'))).toEqual([]);
    expect(left.length).toBe(log.items.length);
  });

  it("answers 410: the webhook is turned off, collects nothing new, and its maker and the device's owner are told by banner and e-mail", async () => {
    const [owner, administrator] = await Promise.all([
      freshUser({ prefix: 'wh-gone' }),
      freshUser({ prefix: 'wh-gone-admin' }),
    ]);
    const device = await freshDevice({ ownerToken: owner.token });
    await seedRelation('device-administrator', device.id, administrator.id);
    // Made by an administrator of the device: the owner, who may manage its webhooks too, hears of it as well.
    const integrations = apiAs('integrations', administrator.token);
    receiver().answerWith(() => ({ status: 410, body: 'gone for good' }));
    const made = await integrations.createWebhook({
      body: { url: receiver().url, events: ['readings.received'], target: { kind: 'device', id: device.id } },
    });
    await ingest(device, [{ timestamp: minutesAgo(2), values: { co2: 1 } }]);
    const off = await eventually(async () => {
      const webhook = await integrations.getWebhook({ params: { id: made.id } });
      return webhook.status === 'disabled' && webhook;
    });
    expect(off).toMatchObject({ disabledReason: 'gone' });
    const [delivery] = (await integrations.listDeliveries({ params: { id: made.id } })).items;
    expect(delivery).toMatchObject({
      status: 'waiting',
      attempts: [expect.objectContaining({ statusCode: 410, response: 'gone for good' })],
    });
    await ingest(device, [{ timestamp: minutesAgo(1), values: { co2: 2 } }]);
    expect((await integrations.getWebhook({ params: { id: made.id } })).waiting).toBe(0);

    for (const told of [administrator, owner]) {
      const banner = await waitForBanner(told.id, (b: Banner) => b.title.startsWith('Webhook turned off'));
      // Read by staff (waitForBanner), so the link is the /admin one; its owner's reads /dashboard/webhooks/….
      expect(banner.body).toContain(`/webhooks/${made.id}">its delivery log</a>`);
      expect(banner.body).toContain('410 Gone');
      const [mail] = await mailsTo(told.email, 1, 20_000);
      expect(mailText(mail!)).toContain(`/webhooks/${made.id}`);
    }
    expect(receiver().requests).toHaveLength(1);
  });

  it('follows no redirect: a 302 is a failed attempt, and the address it names is never called', async () => {
    const elsewhere = await startReceiver();
    try {
      receiver().answerWith(() => ({ status: 302, headers: { location: elsewhere.url } }));
      const device = await freshDevice();
      const integrations = apiAs('integrations', device.ownerToken);
      const made = await integrations.createWebhook({
        body: { url: receiver().url, events: ['readings.received'], target: { kind: 'device', id: device.id } },
      });
      await integrations.testWebhook({ params: { id: made.id } });
      const [ping] = await eventually(async () => {
        const items = (await integrations.listDeliveries({ params: { id: made.id } })).items;
        return items[0]?.status === 'failed' && items;
      });
      expect(ping!.attempts[0]).toMatchObject({ statusCode: 302 });
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.stop();
    }
  });

  it('refuses, naming the field, an address that is never allowed (the metadata service, link-local, credentials, not http)', async () => {
    const device = await freshDevice();
    const integrations = apiAs('integrations', device.ownerToken);
    for (const [url, words] of [
      ['http://169.254.169.254/latest/meta-data/', 'link-local'],
      ['http://[fe80::1]/hook', 'link-local'],
      ['http://0.0.0.0/hook', 'unspecified'],
      ['http://user:pw@127.0.0.1/hook', 'user name or password'],
      ['ftp://127.0.0.1/hook', 'http(s)'],
    ] as const) {
      const refused = await apiRejection(
        integrations.createWebhook({
          body: { url, events: ['readings.received'], target: { kind: 'device', id: device.id } },
        }),
      );
      expect([refused.status, refused.message]).toEqual([400, expect.stringContaining(words)]);
      expect(refused.message).toMatch(/^Invalid body: url: /);
    }
    const none = await apiRejection(
      integrations.createWebhook({
        body: { url: receiver().url, events: [], target: { kind: 'device', id: device.id } },
      }),
    );
    expect([none.status, none.message]).toEqual([400, expect.stringContaining('Choose at least one event')]);
  });

  it('is neither made nor read by a person without the device', async () => {
    const device = await freshDevice();
    const stranger = apiAs('integrations', await tokenOf('approved@example.com'));
    const refused = await apiRejection(
      stranger.createWebhook({
        body: { url: receiver().url, events: ['export.ready'], target: { kind: 'device', id: device.id } },
      }),
    );
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.webhookManagerRequired('device')]);
    const made = await apiAs('integrations', device.ownerToken).createWebhook({
      body: { url: receiver().url, events: ['export.ready'], target: { kind: 'device', id: device.id } },
    });
    expect((await apiRejection(stranger.getWebhook({ params: { id: made.id } }))).status).toBe(403);
    expect((await apiRejection(stranger.listDeliveries({ params: { id: made.id } }))).status).toBe(403);
    expect(
      (await apiRejection(stranger.listWebhooks({ query: { targetKind: 'device', targetId: device.id } }))).status,
    ).toBe(403);
  });
});

describe("a webhook of an organization's devices", () => {
  it('receives readings of its devices, export.ready of an export and subscription.changed of a purchase', async () => {
    const manager = await freshUser({ prefix: 'wh-org' });
    const device = await freshDevice({ ownerToken: manager.token });
    const { id: organization } = await seedOrganization(manager.id, {
      id: uniqueId('wh-org'),
      name: 'Webhook test organization',
    });
    await seedRelation('organization-device', organization, device.id);
    const integrations = apiAs('integrations', manager.token);
    const made = await integrations.createWebhook({
      body: {
        url: receiver().url,
        events: ['readings.received', 'export.ready', 'subscription.changed'],
        target: { kind: 'organization', id: organization },
        description: 'Everything of the organization',
      },
    });
    await ingest(device, [{ timestamp: minutesAgo(5), values: { pm2_5: 12, temperature: 20 } }]);
    const [readings] = await eventually(
      async () => receiver().of('readings.received').length > 0 && receiver().of('readings.received'),
    );
    expect(readings!.event.data.batches[0]).toMatchObject({ deviceId: device.id });

    // Downloads come with Tier 1.
    await setTier(device.id, 'tier1');
    const exported = await apiAs('sensor-data', manager.token).createExport({
      params: { id: device.id },
      body: { from: minutesAgo(60), to: minutesAgo(0), format: 'csv' },
    });
    const [ready] = await eventually(
      async () => receiver().of('export.ready').length > 0 && receiver().of('export.ready'),
    );
    expect(verifiedWith(made.secret, ready!)).toMatchObject({
      type: 'export.ready',
      data: {
        exportId: exported.id,
        deviceId: device.id,
        format: 'csv',
        rows: 1,
        links: { export: `/exports/${exported.id}` },
      },
    });

    await buyTier(manager, device.id, 'prod_sd1_tier2');
    const [changed] = await eventually(
      async () => receiver().of('subscription.changed').length > 0 && receiver().of('subscription.changed'),
    );
    expect(changed!.event.data).toMatchObject({ deviceId: device.id, status: 'active', tier: 'tier2' });
  });
});
