import { createReadingsStore, type StoredReading } from '../../../functions/_shared/sensor-data/readings-store';
import type { ProductLine } from '../../../shared/contracts/devices';
import type { TierId } from '../../../shared/sensor-data/tiers';
import { freshUser } from '../../support/people';
import { freshDevice, setTier } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, uniqueId } from '../../support/stack';

/**
 * Spec §3/§9 tier gates on viewing, through the local gateway: for every product line and tier of the table, the
 * history window (inside: 200; before it: 403 naming the tier that unlocks it), upgrades unlocking older data at
 * once, guests and owners on public and private devices, and campaign windows clipping what a member sees.
 * Readings are backfilled straight into the readings table through its store.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Ages (days) of the backfilled readings: inside and outside each window of the table (7, 30, 365 days). */
const AGES = [0.05, 3, 6.5, 20, 29, 200, 364, 400];

const seed = async (deviceId: string, ages = AGES, now = Date.now()): Promise<StoredReading[]> => {
  const readings = ages.map((age, i) => ({
    timestamp: Math.round(now - age * DAY),
    values: { pm2_5: 10 + i, temperature: 20 + i },
  }));
  await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
    deviceId,
    readings,
    now,
  );
  return readings;
};

const readingsOf = (token: string | undefined) => apiAs('sensor-data', token);

/** The age (days) of each reading on a page, rounded, newest first. */
const agesOn = (items: { timestamp: number }[], now: number) =>
  items.map((item) => Math.round(((now - item.timestamp) / DAY) * 100) / 100);

interface Row {
  tier: TierId;
  days: number;
  /** The tier a request one day past the window names; undefined: no tier reaches further. */
  unlock?: string;
}

/** Spec §9's history column, as the 403s must name it (docs/sensor-data.md "Tiers and windows"). */
const TABLE: Record<'sd1' | 'al', Row[]> = {
  sd1: [
    { tier: 'tier0', days: 7, unlock: 'Tier 1' },
    { tier: 'tier1', days: 30, unlock: 'Tier 2' },
    { tier: 'tier2', days: 365 },
  ],
  al: [
    { tier: 'free', days: 7, unlock: 'Tier 2' },
    { tier: 'tier1', days: 7, unlock: 'Tier 2' },
    { tier: 'tier2', days: 30, unlock: 'Tier 3' },
    { tier: 'tier3', days: 365 },
  ],
};

const LINES: [ProductLine, Row[]][] = [
  ['sd1', TABLE.sd1],
  ['al30', TABLE.al],
  ['al60', TABLE.al],
  ['al80', TABLE.al],
];

describe.each(LINES)('the %s history windows', (productLine, rows) => {
  let device: Awaited<ReturnType<typeof freshDevice>>;
  let now: number;

  beforeAll(async () => {
    device = await freshDevice({ productLine, visibility: 'public' });
    now = Date.now();
    await seed(device.id, AGES, now);
  });

  it.each(rows)(
    '$tier: inside its $days days 200 with every reading there, before them 403 naming $unlock',
    async (row) => {
      await setTier(device.id, row.tier);
      for (const token of [undefined, device.ownerToken]) {
        const api = readingsOf(token);
        const inside = await api.listReadings({
          params: { id: device.id },
          query: { from: Date.now() - row.days * DAY + HOUR, limit: 50 },
        });
        expect(agesOn(inside.items, now)).toEqual(AGES.filter((age) => age < row.days - 1 / 24));
        expect(inside.tier.tier).toBe(row.tier);

        // Without a start the read is clipped to the window: the same readings, nothing older.
        const clipped = await api.listReadings({ params: { id: device.id } });
        expect(agesOn(clipped.items, now)).toEqual(AGES.filter((age) => age < row.days - 0.01));
        expect(clipped.window.from).toBeGreaterThan(now - row.days * DAY - 60_000);

        const before = await apiRejection(
          api.listReadings({ params: { id: device.id }, query: { from: Date.now() - (row.days + 1) * DAY } }),
        );
        expect(before.status).toBe(403);
        expect(before.message).toContain(`reach back ${row.days} days`);
        expect(before.message).toContain(
          row.unlock ? `${row.unlock} unlocks older data` : `no tier of ${productLine.toUpperCase()} devices`,
        );

        // The chart reads obey the same gate.
        const chart = await apiRejection(
          api.series({ params: { id: device.id }, query: { from: Date.now() - (row.days + 1) * DAY } }),
        );
        expect(chart.status).toBe(403);
      }
    },
  );

  it('an upgrade unlocks older data on the next request, and a downgrade hides it again without deleting it', async () => {
    const [base, top] = [rows[0]!, rows[rows.length - 1]!];
    const api = readingsOf(device.ownerToken);
    const from = Date.now() - 250 * DAY;
    await setTier(device.id, base.tier);
    expect((await apiRejection(api.listReadings({ params: { id: device.id }, query: { from } }))).status).toBe(403);

    await setTier(device.id, top.tier);
    const unlocked = await api.listReadings({ params: { id: device.id }, query: { from } });
    expect(agesOn(unlocked.items, now)).toEqual(AGES.filter((age) => age <= 200));

    // A lapsed subscription is the base tier again; the old readings are still there for the next upgrade.
    await setTier(device.id, top.tier, 'canceled');
    expect((await apiRejection(api.listReadings({ params: { id: device.id }, query: { from } }))).status).toBe(403);
    await setTier(device.id, top.tier);
    expect((await api.listReadings({ params: { id: device.id }, query: { from } })).items).toHaveLength(
      unlocked.items.length,
    );
  });
});

/**
 * Spec §9's download and API columns for every product line and tier (the values we chose for "not shown" cells
 * are docs/sensor-data.md's): what a guest of a public device and its owner each reach. The exports and public-API
 * tests prove the same windows on their own routes for a sample of tiers.
 */
const FEATURE_TABLE: Record<
  'sd1' | 'al',
  { tier: TierId; download: number | null; api: number | null; quota: number }[]
> = {
  sd1: [
    { tier: 'tier0', download: null, api: null, quota: 0 },
    { tier: 'tier1', download: 30, api: 30, quota: 3_000 },
    { tier: 'tier2', download: 365, api: 365, quota: 10_000 },
  ],
  al: [
    { tier: 'free', download: null, api: null, quota: 0 },
    { tier: 'tier1', download: 7, api: null, quota: 0 },
    { tier: 'tier2', download: 30, api: 30, quota: 3_000 },
    { tier: 'tier3', download: 365, api: 365, quota: 10_000 },
  ],
};

describe.each(LINES.map(([line]) => line))('the %s download and API windows', (productLine) => {
  let device: Awaited<ReturnType<typeof freshDevice>>;
  beforeAll(async () => {
    device = await freshDevice({ productLine, visibility: 'public' });
  });

  it.each(FEATURE_TABLE[productLine === 'sd1' ? 'sd1' : 'al'])(
    '$tier: downloads $download days, API $api days and $quota requests a month, for a guest and the owner',
    async ({ tier, download, api, quota }) => {
      await setTier(device.id, tier);
      for (const [token, route] of [
        [undefined, 'public'],
        [device.ownerToken, 'relation'],
      ] as const) {
        const summary = await readingsOf(token).dataSummary({ params: { id: device.id } });
        expect(summary.route).toBe(route);
        expect(summary.tier.tier).toBe(tier);
        expect(summary.windows.download.days).toBe(download);
        expect(summary.windows.api.days).toBe(api);
        expect(summary.tier.features.apiMaxRequests).toBe(quota);
      }
    },
  );
});

describe('who may read', () => {
  it('a private device: guest 401, a stranger 403, the owner 200; a public one: everyone', async () => {
    const device = await freshDevice({ productLine: 'sd1' });
    await seed(device.id, [0.1]);
    const stranger = await freshUser({ groups: ['Authenticated_users'], prefix: 'reads-stranger' });

    expect((await apiRejection(readingsOf(undefined).listReadings({ params: { id: device.id } }))).status).toBe(401);
    expect((await apiRejection(readingsOf(stranger.token).listReadings({ params: { id: device.id } }))).status).toBe(
      403,
    );
    expect((await apiRejection(readingsOf(undefined).series({ params: { id: device.id } }))).status).toBe(401);
    expect((await apiRejection(readingsOf(undefined).dataSummary({ params: { id: device.id } }))).status).toBe(401);
    expect((await readingsOf(device.ownerToken).listReadings({ params: { id: device.id } })).items).toHaveLength(1);

    await apiAs('devices', device.ownerToken).update({ params: { id: device.id }, body: { dataVisibility: 'public' } });
    expect((await readingsOf(undefined).listReadings({ params: { id: device.id } })).items).toHaveLength(1);
    expect((await readingsOf(stranger.token).listReadings({ params: { id: device.id } })).items).toHaveLength(1);
  });

  it('the data summary gives a guest the public download window and the owner the permissioned one', async () => {
    const device = await freshDevice({ productLine: 'al30', visibility: 'public' });
    await setTier(device.id, 'tier2');
    const guest = await readingsOf(undefined).dataSummary({ params: { id: device.id } });
    const owner = await readingsOf(device.ownerToken).dataSummary({ params: { id: device.id } });
    expect(guest).toMatchObject({
      route: 'public',
      tier: { tier: 'tier2', name: 'Tier 2' },
      nextTier: { name: 'Tier 3' },
    });
    expect(owner.route).toBe('relation');
    expect(guest.windows.view.days).toBe(30);
    expect(guest.windows.api.days).toBe(30);
    expect(guest.windows.download.days).toBe(30);
    expect(owner.windows.download.days).toBe(30);

    await setTier(device.id, 'free');
    const free = await readingsOf(undefined).dataSummary({ params: { id: device.id } });
    expect(free.windows).toMatchObject({
      view: { days: 7 },
      download: { days: null, from: null },
      api: { days: null },
    });
    expect(free.nextTier?.name).toBe('Tier 1');
  });

  it('an unknown device is 404; a range ending before it starts is 400', async () => {
    expect((await apiRejection(readingsOf(undefined).listReadings({ params: { id: uniqueId('nodev') } }))).status).toBe(
      404,
    );
    const device = await freshDevice({ visibility: 'public' });
    const bad = await apiRejection(
      readingsOf(undefined).listReadings({
        params: { id: device.id },
        query: { from: Date.now(), to: Date.now() - 1 },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('from must not be after to');
  });
});

describe('campaign windows', () => {
  it('a campaign member sees only the readings inside the campaign window, in pages and in charts', async () => {
    const owner = await freshUser({ groups: ['Authenticated_users'], prefix: 'reads-campaign-owner' });
    const member = await freshUser({ groups: ['Authenticated_users'], prefix: 'reads-campaign-member' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
    const now = Date.now();
    await seed(device.id, [0.5, 1.5, 2, 2.5, 3.5, 5], now);
    const campaign = await apiAs('campaigns', owner.token).create({
      body: { name: uniqueId('Reads campaign'), description: 'Window', startsAt: now - 3 * DAY, endsAt: now - DAY },
    });
    const relations = apiAs('relations', owner.token);
    await relations.create({ body: { type: 'campaign-device', referrerId: campaign.id, referentId: device.id } });
    await relations.create({ body: { type: 'campaign-user', referrerId: campaign.id, referentId: member.id } });

    const api = readingsOf(member.token);
    const page = await api.listReadings({ params: { id: device.id }, query: { limit: 2 } });
    expect(agesOn(page.items, now)).toEqual([1.5, 2]);
    expect(page.hasMore).toBe(true);
    // The offset counts only readings inside the window.
    const next = await api.listReadings({ params: { id: device.id }, query: { limit: 2, offset: 2 } });
    expect(agesOn(next.items, now)).toEqual([2.5]);
    expect(next.hasMore).toBe(false);

    const summary = await api.dataSummary({ params: { id: device.id } });
    expect(summary.route).toBe('campaign');
    expect(summary.campaignWindows).toEqual([{ startsAt: campaign.startsAt, endsAt: campaign.endsAt }]);

    // The owner sees them all.
    const all = await readingsOf(owner.token).listReadings({ params: { id: device.id } });
    expect(all.items).toHaveLength(6);
  });
});
