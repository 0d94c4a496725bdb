import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import type { ProductLine } from '../../../shared/contracts/devices';
import type { TierId } from '../../../shared/sensor-data/tiers';
import { nextMonthStart, wellInsidePeriod } from '../../support/clock';
import { bannersAbout } from '../../support/notifications';
import { type FreshUser, freshUser } from '../../support/people';
import { freshDevice, setTier } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, stack, tokenOf } from '../../support/stack';

/**
 * The public API through the local gateway: keys made, listed and revoked (a revoked key is 401 at once), reads
 * with a key on each tier that offers the API (and 403 naming the tier on those that do not), metering to 429 with
 * the rate-limit headers, the 70/90/100 % warnings recorded once on the usage item and sent once to the jobs queue,
 * the usage pages, and a disabled owner's key refused. Usage counts near the quota are seeded in the table.
 */

const DAY = 86_400_000;
const MINUTE = 60_000;

const sensorData = (token?: string) => apiAs('sensor-data', token);

/** The month the server counts in, and when it resets (the test assumes it does not run across midnight UTC on the 1st). */
const month = () => new Date().toISOString().slice(0, 7);

/** A raw call with a key, to see the status, headers and body as a script would. */
const callApi = async (key: string | undefined, path: string) => {
  const response = await fetch(`${areaUrl('sensor-data')}${path}`, {
    headers: key === undefined ? {} : { 'x-api-key': key },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & { message?: string },
  };
};

const readingsPath = (deviceId: string, query = '') => `/v1/devices/${encodeURIComponent(deviceId)}/readings${query}`;

/** A device of the given line and tier, owned by `owner`, with a few readings in the last hour. */
const apiDevice = async (
  owner: FreshUser,
  productLine: ProductLine,
  tier: TierId,
  visibility: 'public' | 'private' = 'private',
) => {
  const device = await freshDevice({ productLine, ownerToken: owner.token, visibility });
  await setTier(device.id, tier);
  const now = Date.now();
  await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
    device.id,
    [1, 2, 3].map((age) => ({ timestamp: now - age * MINUTE, values: { pm2_5: age, temperature: 20 + age } })),
    now,
  );
  return device.id;
};

const usageTable = () => stack().tables.apiUsage!;

/**
 * Sets this month's count of a meter straight in the usage table, keeping the warnings recorded: a device's, or
 * (`public#{personId}`) a person's own allowance for other people's public devices.
 */
const seedCount = async (meter: string, count: number) => {
  await documentClient().send(
    new UpdateCommand({
      TableName: usageTable(),
      Key: { pk: `${meter}#${month()}` },
      UpdateExpression: 'SET #count = :count',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':count': count },
    }),
  );
};

const usageItem = async (deviceId: string) =>
  (await documentClient().send(new GetCommand({ TableName: usageTable(), Key: { pk: `${deviceId}#${month()}` } })))
    .Item;

/**
 * The quota warnings the key's owner was sent for this device: the events went to the jobs queue, and the
 * notifications worker turned each into a banner (docs/notifications.md, "Triggers").
 */
const quotaNoticesOf = async (ownerId: string, deviceId: string, count: number) =>
  (await bannersAbout(ownerId, `Device ${deviceId} used`, count))
    .map((banner) => ({
      threshold: Number(/used (\d+) %/.exec(banner.title)![1]),
      month: /for (\d{4}-\d{2})$/.exec(banner.title)![1],
      body: banner.body,
      initiator: banner.initiator.id,
    }))
    .sort((a, b) => a.threshold - b.threshold);

describe('API keys', () => {
  it('are answered once, listed without secrets, and a revoked key is refused at once', async () => {
    const owner = await freshUser({ prefix: 'api-keys' });
    const deviceId = await apiDevice(owner, 'sd1', 'tier1');
    const made = await sensorData(owner.token).createApiKey({ body: { name: '  Nightly export  ' } });
    expect(made).toMatchObject({
      name: 'Nightly export',
      key: expect.stringMatching(/^ak_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{40,}$/),
    });
    expect(made.key.startsWith(`ak_${made.keyId}.`)).toBe(true);

    const listed = await sensorData(owner.token).listApiKeys({});
    expect(listed.items).toEqual([{ keyId: made.keyId, name: 'Nightly export', created: made.created }]);
    expect(JSON.stringify(listed)).not.toContain(made.key.split('.')[1]);

    expect((await callApi(made.key, readingsPath(deviceId))).status).toBe(200);
    // The first use is recorded as lastUsed.
    expect((await sensorData(owner.token).listApiKeys({})).items[0]!.lastUsed).toBeGreaterThanOrEqual(made.created);

    // Another person cannot revoke it (nor learn it exists); its owner can.
    const stranger = await freshUser({ prefix: 'api-stranger' });
    const foreign = await apiRejection(sensorData(stranger.token).revokeApiKey({ params: { keyId: made.keyId } }));
    expect(foreign.status).toBe(404);
    await sensorData(owner.token).revokeApiKey({ params: { keyId: made.keyId } });
    expect((await sensorData(owner.token).listApiKeys({})).items).toEqual([]);

    const revoked = await callApi(made.key, readingsPath(deviceId));
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe('A valid API key is required (X-Api-Key header)');
    expect((await callApi(undefined, readingsPath(deviceId))).status).toBe(401);
  });

  it('staff may revoke anyone’s key; a person’s token is no key', async () => {
    const owner = await freshUser({ prefix: 'api-keys' });
    const deviceId = await apiDevice(owner, 'sd1', 'tier1');
    const made = await sensorData(owner.token).createApiKey({ body: { name: 'leaked' } });
    const asToken = await fetch(`${areaUrl('sensor-data')}${readingsPath(deviceId)}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(asToken.status).toBe(401);
    await sensorData(await tokenOf('employee@example.com')).revokeApiKey({ params: { keyId: made.keyId } });
    expect((await callApi(made.key, readingsPath(deviceId))).status).toBe(401);
  });

  it('acts as its owner without staff powers: an administrator’s key reaches only what they hold', async () => {
    const admin = await freshUser({ prefix: 'api-admin', groups: ['Administrators'] });
    const other = await freshUser({ prefix: 'api-other' });
    const foreignDevice = await apiDevice(other, 'sd1', 'tier2');
    const { key } = await sensorData(admin.token).createApiKey({ body: { name: 'admin script' } });
    // With the token, staff read it; with the key, the device is someone else's private one.
    await sensorData(admin.token).listReadings({ params: { id: foreignDevice } });
    expect((await callApi(key, readingsPath(foreignDevice))).status).toBe(403);
  });

  it('stop working when the owner is disabled', async () => {
    const owner = await freshUser({ prefix: 'api-disabled' });
    const deviceId = await apiDevice(owner, 'sd1', 'tier1');
    const { key } = await sensorData(owner.token).createApiKey({ body: { name: 'k' } });
    expect((await callApi(key, readingsPath(deviceId))).status).toBe(200);
    await apiAs('users', await tokenOf('employee@example.com')).disableUser({ params: { id: owner.id } });
    const refused = await callApi(key, readingsPath(deviceId));
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('This account is disabled');
  });
});

describe('public API reads by tier', () => {
  let owner: FreshUser;
  let key: string;

  beforeAll(async () => {
    owner = await freshUser({ prefix: 'api-tiers' });
    ({ key } = await sensorData(owner.token).createApiKey({ body: { name: 'tiers' } }));
  });

  it.each([
    ['sd1', 'tier1', 3_000],
    ['sd1', 'tier2', 10_000],
    ['al30', 'tier2', 3_000],
    ['al60', 'tier3', 10_000],
  ] as const)(
    '%s %s: readings and series with the rate-limit headers of a %i quota',
    async (line, tier, limit) => {
      // The reset is the next UTC month's start, as of the request.
      await wellInsidePeriod(nextMonthStart, 30_000);
      const deviceId = await apiDevice(owner, line, tier);
      const first = await callApi(key, readingsPath(deviceId, '?limit=2'));
      expect(first.status).toBe(200);
      expect((first.body.items as { values: { pm2_5: number } }[]).map((r) => r.values.pm2_5)).toEqual([1, 2]);
      expect(first.headers.get('x-ratelimit-limit')).toBe(String(limit));
      expect(first.headers.get('x-ratelimit-remaining')).toBe(String(limit - 1));
      expect(first.headers.get('x-ratelimit-reset')).toBe(String(nextMonthStart() / 1000));

      const series = await callApi(key, `/v1/devices/${deviceId}/series?width=20&measurements=pm2_5`);
      expect(series.status).toBe(200);
      expect(series.headers.get('x-ratelimit-remaining')).toBe(String(limit - 2));
    },
    120_000,
  );

  it.each([
    ['sd1', 'tier0', 'API access is not included in Tier 0 of SD1 devices; Tier 1 unlocks it'],
    ['al30', 'free', 'API access is not included in the Free tier of AL30 devices; Tier 2 unlocks it'],
    ['al80', 'tier1', 'API access is not included in Tier 1 of AL80 devices; Tier 2 unlocks it'],
  ] as const)('%s %s: 403 naming the tier that grants the API, and nothing counted', async (line, tier, message) => {
    const deviceId = await apiDevice(owner, line, tier);
    const refused = await callApi(key, readingsPath(deviceId));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(message);
    expect(await usageItem(deviceId)).toBeUndefined();
  });

  it('refuses a range before the API window with the tier that reaches it, uncounted; upgrading opens it at once', async () => {
    const deviceId = await apiDevice(owner, 'sd1', 'tier1');
    const old = readingsPath(deviceId, `?from=${Date.now() - 60 * DAY}`);
    const refused = await callApi(key, old);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('Tier 2 unlocks older data');
    expect(await usageItem(deviceId)).toBeUndefined();
    await setTier(deviceId, 'tier2');
    expect((await callApi(key, old)).status).toBe(200);
  });
});

describe('metering', () => {
  it('warns at 70, 90 and 100 % once each, then answers 429 with when the quota resets', async () => {
    const owner = await freshUser({ prefix: 'api-meter' });
    const deviceId = await apiDevice(owner, 'sd1', 'tier1');
    const { key } = await sensorData(owner.token).createApiKey({ body: { name: 'meter' } });
    // The quota is per UTC month: the seeded counts and the calls must fall in one month.
    await wellInsidePeriod(nextMonthStart, 60_000);

    await callApi(key, readingsPath(deviceId));
    await seedCount(deviceId, 2_099);
    const at70 = await callApi(key, readingsPath(deviceId));
    expect(at70.status).toBe(200);
    expect(at70.headers.get('x-ratelimit-remaining')).toBe('900');
    await callApi(key, readingsPath(deviceId));

    await seedCount(deviceId, 2_699);
    expect((await callApi(key, readingsPath(deviceId))).headers.get('x-ratelimit-remaining')).toBe('300');
    await seedCount(deviceId, 2_999);
    const last = await callApi(key, readingsPath(deviceId));
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');

    const reset = new Date(nextMonthStart()).toISOString();
    for (let i = 0; i < 2; i += 1) {
      const over = await callApi(key, readingsPath(deviceId));
      expect(over.status).toBe(429);
      expect(over.body.message).toBe(
        `The API quota of this device (3000 requests in ${month()}) is used up; it resets at ${reset}`,
      );
      expect(over.headers.get('x-ratelimit-limit')).toBe('3000');
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(over.headers.get('x-ratelimit-reset')).toBe(String(nextMonthStart() / 1000));
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    // Refused requests are not counted; each threshold is recorded once, with the count that crossed it.
    const item = await usageItem(deviceId);
    expect(item).toMatchObject({
      count: 3_000,
      warning70: { used: 2_100 },
      warning90: { used: 2_700 },
      warning100: { used: 3_000 },
    });
    const notices = await quotaNoticesOf(owner.id, deviceId, 3);
    expect(notices.map((n) => [n.threshold, n.initiator, n.month])).toEqual([
      [70, owner.id, month()],
      [90, owner.id, month()],
      [100, owner.id, month()],
    ]);
    expect(notices.map((n) => /read <a[^>]*>[^<]*<\/a> (\d+) times/.exec(n.body)?.[1])).toEqual([
      '2100',
      '2700',
      '3000',
    ]);
    expect(notices.every((n) => n.body.includes('3000 requests'))).toBe(true);

    // The usage pages: the device's (for anyone who may view it) and the key owner's month.
    const usage = await sensorData(owner.token).deviceApiUsage({ params: { id: deviceId } });
    expect(usage).toMatchObject({ deviceId, month: month(), used: 3_000, limit: 3_000, remaining: 0, tier: 'Tier 1' });
    expect(usage.resetsAt).toBe(nextMonthStart());
    expect(usage.warnings.map((w) => w.threshold)).toEqual([70, 90, 100]);
    const mine = await sensorData(owner.token).myApiUsage({});
    expect(mine.items.map((u) => [u.deviceId, u.used])).toEqual([[deviceId, 3_000]]);

    // An upgrade raises the quota at once.
    await setTier(deviceId, 'tier2');
    const upgraded = await callApi(key, readingsPath(deviceId));
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get('x-ratelimit-remaining')).toBe(String(10_000 - 3_001));
  }, 150_000);

  it("counts a stranger's calls to a public device against the stranger's own allowance: the owner's key keeps working (audit)", async () => {
    const owner = await freshUser({ prefix: 'api-public-owner' });
    const stranger = await freshUser({ prefix: 'api-public-stranger' });
    const publicDevice = await apiDevice(owner, 'sd1', 'tier2', 'public');
    // The stranger's own allowance is their own devices' best tier: Tier 1 of sd1, 3,000 a month.
    await apiDevice(stranger, 'sd1', 'tier1');
    const ownerKey = (await sensorData(owner.token).createApiKey({ body: { name: 'mine' } })).key;
    const strangerKey = (await sensorData(stranger.token).createApiKey({ body: { name: 'theirs' } })).key;
    await wellInsidePeriod(nextMonthStart, 60_000);

    await seedCount(`public#${stranger.id}`, 2_998);
    const read = () => callApi(strangerKey, readingsPath(publicDevice));
    const first = await read();
    expect([first.status, first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([
      200,
      '3000',
      '1',
    ]);
    expect((await read()).headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await read();
    expect(over.status).toBe(429);
    expect(over.body.message).toBe(
      `Your API allowance for other people's public devices (3000 requests in ${month()}) is used up; it resets at ${new Date(nextMonthStart()).toISOString()}`,
    );

    // None of it was the owner's: the device's month is untouched, and the owner's key reads on its own quota.
    expect(await usageItem(publicDevice)).toBeUndefined();
    const owners = await callApi(ownerKey, readingsPath(publicDevice));
    expect([
      owners.status,
      owners.headers.get('x-ratelimit-limit'),
      owners.headers.get('x-ratelimit-remaining'),
    ]).toEqual([200, '10000', '9999']);
    expect((await usageItem(publicDevice))?.count).toBe(1);

    // The warnings went to the stranger, about their own allowance; the usage page shows it, not the owner's device.
    // A count first seen past several thresholds (the seeded one) records each of them.
    const notices = await bannersAbout(stranger.id, 'of your allowance for public devices', 3);
    expect(notices.map((n) => Number(/used (\d+) %/.exec(n.title)?.[1])).sort((a, b) => a - b)).toEqual([70, 90, 100]);
    expect(notices.every((n) => n.title.endsWith(`for ${month()}`) && n.initiator.id === stranger.id)).toBe(true);
    expect(await bannersAbout(owner.id, `Device ${publicDevice} used`, 0, 0)).toEqual([]);
    const theirs = await sensorData(stranger.token).myApiUsage({});
    expect(theirs.items).toEqual([]);
    expect(theirs.publicDevices).toMatchObject({ used: 3_000, limit: 3_000, remaining: 0, month: month() });
    expect(theirs.publicDevices.warnings.map((w) => w.threshold)).toEqual([70, 90, 100]);
  }, 150_000);

  it('refuses a public device to a key whose owner has no device with API access, counting nothing', async () => {
    const owner = await freshUser({ prefix: 'api-public-owner' });
    const publicDevice = await apiDevice(owner, 'sd1', 'tier1', 'public');
    const stranger = await freshUser({ prefix: 'api-public-none' });
    await apiDevice(stranger, 'sd1', 'tier0');
    const { key } = await sensorData(stranger.token).createApiKey({ body: { name: 'none' } });
    const refused = await callApi(key, readingsPath(publicDevice));
    expect([refused.status, refused.body.message]).toEqual([
      403,
      "Reading another person's public device with an API key counts against your own allowance: a device you own or administer needs a tier with API access",
    ]);
    expect(await usageItem(publicDevice)).toBeUndefined();
  });

  it('records a threshold once when concurrent requests cross it together', async () => {
    const owner = await freshUser({ prefix: 'api-race' });
    const deviceId = await apiDevice(owner, 'al30', 'tier2');
    const { key } = await sensorData(owner.token).createApiKey({ body: { name: 'race' } });
    await callApi(key, readingsPath(deviceId));
    await seedCount(deviceId, 2_096);
    const answers = await Promise.all(Array.from({ length: 8 }, () => callApi(key, readingsPath(deviceId))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).size).toBe(8);
    expect((await usageItem(deviceId))?.count).toBe(2_104);
    expect((await quotaNoticesOf(owner.id, deviceId, 1)).map((n) => n.threshold)).toEqual([70]);
  });

  it('shows a private device’s usage only to those who may view it', async () => {
    const owner = await freshUser({ prefix: 'api-usage' });
    const deviceId = await apiDevice(owner, 'sd1', 'tier1');
    const stranger = await freshUser({ prefix: 'api-usage-stranger' });
    expect((await apiRejection(sensorData(stranger.token).deviceApiUsage({ params: { id: deviceId } }))).status).toBe(
      403,
    );
    const staff = await sensorData(await tokenOf('employee@example.com')).deviceApiUsage({ params: { id: deviceId } });
    expect(staff).toMatchObject({ used: 0, limit: 3_000, warnings: [] });
    expect((await sensorData(stranger.token).myApiUsage({})).items).toEqual([]);
  });
});
