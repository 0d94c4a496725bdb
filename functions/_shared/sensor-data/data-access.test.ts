import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ProductLine } from '../../../shared/contracts/devices';
import { tierFeaturesValueOf } from '../../../shared/sensor-data/tier-features';
import { DAY_MS, DEFAULT_TIERS, tierRow } from '../../../shared/sensor-data/tiers';
import { callerOf } from '../../../test/support/callers';
import type { Access } from '../access/access';
import type { AccessDecision } from '../access/access-cache';
import type { KeyRead, ReadAhead } from '../read-ahead';
import { createDataAccess, type DataAccess, readableRanges, windowStart } from './data-access';
import { createDeviceTiers, type DeviceTiers } from './device-tier';

const NOW = Date.UTC(2026, 10, 21);

const accessOf = (
  productLine: ProductLine,
  tier: string | undefined,
  permissioned: boolean,
  windows: DataAccess['windows'] = null,
): DataAccess => ({
  device: { id: 'dev-1', name: 'D', productLine, dataVisibility: 'public', state: 'active' },
  tier: tierRow(DEFAULT_TIERS[productLine], tier),
  lineTiers: DEFAULT_TIERS[productLine],
  route: permissioned ? 'relation' : 'public',
  permissioned,
  windows,
});

describe('windows by purpose', () => {
  it('lets views reach back the history days', () => {
    expect(windowStart(accessOf('sd1', 'tier2', true), 'view', NOW)).toBe(NOW - 365 * DAY_MS);
    expect(windowStart(accessOf('al30', undefined, false), 'view', NOW)).toBe(NOW - 7 * DAY_MS);
  });

  it('refuses downloads and the API where the tier has none, naming the tier that has them', () => {
    expect(() => windowStart(accessOf('sd1', 'tier0', true), 'download', NOW)).toThrow(/Tier 1 unlocks them/);
    expect(() => windowStart(accessOf('al30', 'tier1', true), 'api', NOW)).toThrow(/Tier 2 unlocks it/);
    expect(() => windowStart(accessOf('al30', 'free', false), 'download', NOW)).toThrow(/403|Tier 1/);
  });

  it("says what a tier lacks in a person's words: the tier and product line by name, never their ids", () => {
    expect(() => windowStart(accessOf('al60', 'free', true), 'download', NOW)).toThrow(
      'Downloads are not included in the Free tier of AL60 devices; Tier 1 unlocks them',
    );
    expect(() => windowStart(accessOf('al60', 'free', false), 'api', NOW)).toThrow(
      'API access is not included in the Free tier of AL60 devices; Tier 2 unlocks it',
    );
  });

  it('uses the public download window for public-only callers and the permissioned one otherwise', () => {
    const tier = tierRow(DEFAULT_TIERS.sd1, 'tier1');
    const publicDays = tier.features.manualDataDownloadPublicAccessDays!;
    expect(windowStart(accessOf('sd1', 'tier1', false), 'download', NOW)).toBe(NOW - publicDays * DAY_MS);
    expect(windowStart(accessOf('sd1', 'tier1', true), 'download', NOW)).toBe(
      NOW - tier.features.manualDataDownloadPermissionedAccessDays! * DAY_MS,
    );
  });
});

describe('readable ranges', () => {
  it('clips a range without a start to the window', () => {
    expect(readableRanges(accessOf('sd1', 'tier0', true), 'view', {}, NOW).range).toEqual({
      from: NOW - 7 * DAY_MS,
      to: NOW,
    });
  });

  it('refuses a start before the window with 403 naming the tier that reaches it, and allows it after an upgrade', () => {
    const from = NOW - 20 * DAY_MS;
    let error: unknown;
    try {
      readableRanges(accessOf('sd1', 'tier0', true), 'view', { from }, NOW);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ status: 403, message: expect.stringContaining('Tier 1 unlocks older data') });
    expect(readableRanges(accessOf('sd1', 'tier1', true), 'view', { from }, NOW).range.from).toBe(from);
  });

  it('says when no tier reaches that far back', () => {
    expect(() => readableRanges(accessOf('al30', 'tier3', true), 'view', { from: NOW - 400 * DAY_MS }, NOW)).toThrow(
      'Charts and reads of this device reach back 365 days on Tier 3 of AL30 devices; no tier of AL30 devices reaches that far back',
    );
  });

  it('names the tier for the days asked, not one more, when the start was computed a moment ago', () => {
    // "30 days" computed 2 s before the check: Tier 1 (30 days) unlocks it, not Tier 2.
    expect(() =>
      readableRanges(accessOf('sd1', 'tier0', true), 'view', { from: NOW - 30 * DAY_MS - 2_000 }, NOW),
    ).toThrow(/Tier 1 unlocks older data/);
  });

  it('tolerates a minute of clock difference at the window edge', () => {
    expect(() =>
      readableRanges(accessOf('sd1', 'tier0', true), 'view', { from: NOW - 7 * DAY_MS - 30_000 }, NOW),
    ).not.toThrow();
  });

  it("clips to a campaign's windows", () => {
    const windows = [{ startsAt: NOW - 2 * DAY_MS, endsAt: NOW - DAY_MS }];
    expect(readableRanges(accessOf('sd1', 'tier0', true, windows), 'view', {}, NOW).parts).toEqual([
      { from: NOW - 2 * DAY_MS, to: NOW - DAY_MS },
    ]);
  });
});

describe('resolving access', () => {
  const device = (dataVisibility: 'public' | 'private') => ({
    Item: {
      id: 'dev-1',
      name: 'D',
      productLine: 'sd1',
      dataVisibility,
      state: 'active',
      measurementNames: new Set(['pm2_5', 'co2']),
    },
  });
  const make = (item: unknown, decision: AccessDecision) =>
    createDataAccess({
      db: { send: async () => item } as unknown as DynamoDBDocumentClient,
      devicesTable: 'devices',
      access: {
        forCaller: () => ({ check: async () => decision, require: async () => decision }),
      } as unknown as Access,
      tiers: {
        tierReader: async () => (line: ProductLine) => ({
          tier: tierRow(DEFAULT_TIERS[line], 'tier1'),
          line: DEFAULT_TIERS[line],
        }),
      } as unknown as DeviceTiers,
    });
  const caller = callerOf('u1', []);

  it('answers 404 for an unknown device', async () => {
    await expect(make({}, { allowed: true, via: 'staff' }).resolve(caller, 'dev-x')).rejects.toMatchObject({
      status: 404,
    });
  });

  it('tells the route: staff, relation, campaign with its windows, or public', async () => {
    expect(await make(device('private'), { allowed: true, via: 'staff' }).resolve(caller, 'dev-1')).toMatchObject({
      route: 'staff',
      permissioned: true,
      windows: null,
    });
    expect((await make(device('private'), { allowed: true, via: 'device-user' }).resolve(caller, 'dev-1')).route).toBe(
      'relation',
    );
    const windows = [{ startsAt: 1, endsAt: 2 }];
    expect(
      await make(device('private'), { allowed: true, via: 'campaign-user:c1', campaignIds: ['c1'], windows }).resolve(
        caller,
        'dev-1',
      ),
    ).toMatchObject({ route: 'campaign', windows });
    const open = await make(device('public'), { allowed: false }).resolve(undefined, 'dev-1');
    expect(open).toMatchObject({ route: 'public', permissioned: false, tier: { name: 'Tier 1' } });
    expect(open.device.measurementNames).toEqual(['co2', 'pm2_5']);
  });

  it('names the device, subscription, tier table and relation keys to read ahead, and resolves from them without a read', async () => {
    const storedTable = tierFeaturesValueOf(DEFAULT_TIERS);
    storedTable.sd1.tier2!.historicalDataAccessDays = 400;
    const relationKey: KeyRead = { table: 'relations', key: { id: 'device-user#dev-1#u1' }, consistent: true };
    let handed: ReadAhead | undefined;
    const noDb = {
      send: async () => {
        throw new Error('read ahead: no read of its own');
      },
    } as unknown as DynamoDBDocumentClient;
    const dataAccess = createDataAccess({
      db: noDb,
      devicesTable: 'devices',
      access: {
        readAhead: () => [relationKey],
        forCaller: () => ({
          check: async (_kind: string, _id: string, _options: unknown, ahead: ReadAhead) => {
            handed = ahead;
            return { allowed: true, via: 'device-user' };
          },
        }),
      } as unknown as Access,
      tiers: createDeviceTiers({ db: noDb, tableName: 'subs', parametersTable: 'params' }),
    });
    const keys = dataAccess.readAhead(caller, 'dev-1');
    expect(keys.map((key) => [key.table, key.key, key.consistent])).toEqual([
      ['devices', { id: 'dev-1' }, true],
      ['subs', { deviceId: 'dev-1' }, true],
      ['params', { id: 'tier-features' }, true],
      ['relations', { id: 'device-user#dev-1#u1' }, true],
    ]);
    const items: Record<string, Record<string, unknown>> = {
      devices: device('private').Item,
      subs: { deviceId: 'dev-1', tier: 'tier2', status: 'active' },
      params: { id: 'tier-features', value: storedTable },
    };
    const ahead: ReadAhead = {
      has: (read) => keys.some((key) => key.table === read.table),
      item: (read) => items[read.table],
    };
    const resolved = await dataAccess.resolve(caller, 'dev-1', ahead);
    expect(resolved).toMatchObject({
      route: 'relation',
      tier: { tier: 'tier2', features: { historicalDataAccessDays: 400 } },
      device: { name: 'D' },
    });
    // The stored table, not the seed, says which tier unlocks more.
    expect(resolved.lineTiers.map((row) => row.features.historicalDataAccessDays)).toEqual([7, 30, 400]);
    expect(handed).toBe(ahead);
  });

  it('answers 401 to a guest and 403 to a signed-in stranger on a private device', async () => {
    await expect(make(device('private'), { allowed: false }).resolve(undefined, 'dev-1')).rejects.toMatchObject({
      status: 401,
    });
    await expect(make(device('private'), { allowed: false }).resolve(caller, 'dev-1')).rejects.toMatchObject({
      status: 403,
    });
  });
});
