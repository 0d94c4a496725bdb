import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import type { TierFeaturesSettings } from '../../../shared/contracts/system';
import {
  TIER_FEATURES_PARAMETER,
  type TierFeaturesValue,
  tierFeaturesValueOfLines,
} from '../../../shared/sensor-data/tier-features';
import { freshDevice, type TestDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, tokenOf } from '../../support/stack';

/**
 * Tier features as data (docs/sensor-data.md), through the gateway: an administrator's change to the tier table
 * decides the very next read of a device's data, the data summary and the pricing table; only Administrators
 * change it, and an invalid table is refused with its reason. The stack is shared by every test file: the table
 * found at the start is put back afterwards, whatever happens.
 */

const DAY = 86_400_000;

let admin: ReturnType<typeof apiAs<'system'>>;
let original: TierFeaturesSettings;
let device: TestDevice;

/** The table in force now, as PUT takes it, with one change. */
const changed = (change: (value: TierFeaturesValue) => void): TierFeaturesValue => {
  const value = structuredClone(tierFeaturesValueOfLines(original.productLines));
  change(value);
  return value;
};

const restore = async () => {
  if (original.stored) {
    await admin.putTierFeatures({ body: tierFeaturesValueOfLines(original.productLines) });
  } else {
    await admin.deleteParameter({ params: { id: TIER_FEATURES_PARAMETER } }).catch(() => undefined);
  }
};

beforeAll(async () => {
  admin = apiAs('system', await tokenOf('admin@example.com'));
  original = await admin.getTierFeatures({});
  // A public SD1 device without a subscription: Tier 0, whose history the test changes.
  device = await freshDevice({ productLine: 'sd1', visibility: 'public' });
  const now = Date.now();
  await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
    device.id,
    [
      { timestamp: now - 5 * DAY, values: { pm2_5: 5 } },
      { timestamp: now - DAY, values: { pm2_5: 1 } },
    ],
    now,
  );
});

afterAll(restore);

describe('the tier-features table', () => {
  it("an administrator lowers SD1 Tier 0's history from 7 to 3 days: the very next read of a 5-day-old range is a 403 naming the new window", async () => {
    const sensorData = apiAs('sensor-data', device.ownerToken);
    const fiveDaysAgo = () => Date.now() - 5 * DAY - 60 * 60_000;
    try {
      // The seed's 7 days reach both readings.
      const before = await sensorData.listReadings({ params: { id: device.id }, query: { from: fiveDaysAgo() } });
      expect(before.items).toHaveLength(2);

      const saved = await admin.putTierFeatures({
        body: changed((value) => {
          value.sd1.tier0!.historicalDataAccessDays = 3;
        }),
      });
      expect(saved.stored).toBe(true);
      expect(saved.productLines[0]!.tiers[0]).toMatchObject({
        name: 'Tier 0',
        features: { historicalDataAccessDays: 3 },
      });

      const refused = await apiRejection(
        sensorData.listReadings({ params: { id: device.id }, query: { from: fiveDaysAgo() } }),
      );
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('reach back 3 days on Tier 0 of SD1 devices');
      expect(refused.message).toContain('Tier 1 unlocks older data');
      // Inside the new window the reads go on.
      const inside = await sensorData.listReadings({ params: { id: device.id } });
      expect(inside.items.map((r) => r.values.pm2_5)).toEqual([1]);

      // Every display of the table says the same: the summary, the pricing table, the editor's read.
      const summary = await sensorData.dataSummary({ params: { id: device.id } });
      expect(summary.windows.view.days).toBe(3);
      expect(summary.tiers.map((t) => [t.name, t.features.historicalDataAccessDays])).toEqual([
        ['Tier 0', 3],
        ['Tier 1', 30],
        ['Tier 2', 365],
      ]);
      const { productLines } = await apiAs('sensor-data', undefined).listTiers({});
      expect(productLines.find((l) => l.productLine === 'sd1')!.tiers[0]!.features.historicalDataAccessDays).toBe(3);
      expect(productLines.find((l) => l.productLine === 'al30')!.tiers[0]!.features.historicalDataAccessDays).toBe(7);
      expect(await apiAs('system', undefined).getTierFeatures({})).toMatchObject({ stored: true });

      // Deleting the parameter brings back the seed on the next read.
      await admin.deleteParameter({ params: { id: TIER_FEATURES_PARAMETER } });
      const reset = await sensorData.listReadings({ params: { id: device.id }, query: { from: fiveDaysAgo() } });
      expect(reset.items).toHaveLength(2);
      expect(await admin.getTierFeatures({})).toMatchObject({ stored: false });
    } finally {
      await restore();
    }
  });

  it.each([
    ['an Employee', 'employee@example.com'],
    ['a user', 'user@example.com'],
  ] as const)("refuses %s's PUT with 403 and changes nothing", async (_who, email) => {
    const before = await admin.getTierFeatures({});
    const refused = await apiRejection(
      apiAs('system', await tokenOf(email)).putTierFeatures({
        body: changed((value) => {
          value.sd1.tier0!.historicalDataAccessDays = 1;
        }),
      }),
    );
    expect(refused.status).toBe(403);
    expect(await admin.getTierFeatures({})).toEqual(before);
  });

  it('refuses a guest with 401, and lets a guest read the table (pricing information)', async () => {
    const guest = apiAs('system', undefined);
    const refused = await apiRejection(guest.putTierFeatures({ body: changed(() => undefined) }));
    expect(refused.status).toBe(401);
    expect((await guest.getTierFeatures({})).productLines.map((l) => l.productLine)).toEqual([
      'sd1',
      'al30',
      'al60',
      'al80',
    ]);
  });

  it('refuses an invalid table with 400 and the reason, on PUT and through the generic parameter routes alike', async () => {
    const lower = changed((value) => {
      value.al60.tier2!.historicalDataAccessDays = 2;
    });
    const put = await apiRejection(admin.putTierFeatures({ body: lower }));
    expect(put.status).toBe(400);
    expect(put.message).toContain("AL60 Tier 2: history days (2) is less than Tier 1's (7)");

    const noApi = changed((value) => {
      value.sd1.tier0!.apiMaxRequests = 50;
    });
    const viaCreate = await apiRejection(
      admin.createParameter({ body: { id: TIER_FEATURES_PARAMETER, value: noApi as never } }),
    );
    // Checked before anything is written, whether or not the parameter exists.
    expect(viaCreate.status).toBe(400);
    expect(viaCreate.message).toBe('SD1 Tier 0: API requests a month must be 0 without API access');

    await admin.putTierFeatures({ body: changed(() => undefined) });
    try {
      const viaUpdate = await apiRejection(
        admin.updateParameter({ params: { id: TIER_FEATURES_PARAMETER }, body: { value: { sd1: 7 } } }),
      );
      expect(viaUpdate.status).toBe(400);
      expect(viaUpdate.message).toContain('SD1 is missing');
      expect((await admin.getTierFeatures({})).productLines).toEqual(original.productLines);
    } finally {
      await restore();
    }
  });
});
