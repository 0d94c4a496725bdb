import type { Caller } from '../../../shared/auth/verify-token';
import { MAX_COMPARED_DEVICES } from '../../../shared/contracts/sensor-data-campaigns';
import { DAY_MS, DEFAULT_TIERS, tierRow } from '../../../shared/sensor-data/tiers';
import { Forbidden, NotFound } from '../../_shared/errors';
import type { KeyRead, ReadAhead } from '../../_shared/read-ahead';
import type { DataAccess } from '../../_shared/sensor-data/data-access';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import { type CampaignWindowRecord, createCampaignSeries } from './campaign-series';
import { createSeriesPoints, type RollupColumns } from './series-points';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const now = Date.UTC(2025, 5, 15, 12, 30);
const caller: Caller = { sub: 'viewer', groups: [] } as unknown as Caller;

const accessOf = (id: string, overrides: Partial<DataAccess> = {}): DataAccess => ({
  device: {
    id,
    name: `Device ${id}`,
    productLine: 'sd1',
    dataVisibility: 'private',
    state: 'active',
  },
  tier: tierRow(DEFAULT_TIERS.sd1, 'tier2'),
  lineTiers: DEFAULT_TIERS.sd1,
  route: 'relation',
  permissioned: true,
  windows: null,
  ...overrides,
});

/** Readings every 10 minutes over `[from, to]` of each named measurement, valued by `value(time)`. */
const every10 = (from: number, to: number, values: (time: number) => Record<string, number>): StoredReading[] => {
  const readings: StoredReading[] = [];
  for (let t = Math.ceil(from / (10 * MINUTE)) * 10 * MINUTE; t <= to; t += 10 * MINUTE) {
    readings.push({ timestamp: t, values: values(t) });
  }
  return readings;
};

/** Hourly roll-ups of the same readings, as the worker writes them. */
const hourly = (readings: StoredReading[]): RollupColumns => {
  const hours = new Map<number, StoredReading[]>();
  for (const r of readings) {
    const hour = Math.floor(r.timestamp / HOUR) * HOUR;
    hours.set(hour, [...(hours.get(hour) ?? []), r]);
  }
  const t = [...hours.keys()].sort((a, b) => a - b);
  const names = [...new Set(readings.flatMap((r) => Object.keys(r.values)))];
  const m: RollupColumns['m'] = {};
  for (const name of names) {
    const of = (hour: number) => hours.get(hour)!.flatMap((r) => (name in r.values ? [r.values[name]!] : []));
    m[name] = {
      min: t.map((h) => (of(h).length ? Math.min(...of(h)) : null)),
      max: t.map((h) => (of(h).length ? Math.max(...of(h)) : null)),
      mean: t.map((h) => (of(h).length ? of(h).reduce((a, b) => a + b, 0) / of(h).length : null)),
      count: t.map((h) => (of(h).length ? of(h).length : null)),
    };
  }
  return { t, m };
};

interface Setup {
  campaign?: CampaignWindowRecord;
  allowed?: boolean;
  /** What the index lists; `held` defaults to all of them. */
  listed: string[];
  held?: string[];
  /** Per device: its access, or the error its gate throws. */
  devices: Record<string, DataAccess | Error>;
  readings?: Record<string, StoredReading[]>;
}

const campaignOf = (startsAt: number, endsAt: number): CampaignWindowRecord => ({
  id: 'camp-1',
  name: 'Lake shore',
  startsAt,
  endsAt,
});

const make = ({ campaign, allowed = true, listed, held = listed, devices, readings = {} }: Setup) => {
  const batches: KeyRead[][] = [];
  const holdRead = (campaignId: string, deviceId: string): KeyRead => ({
    table: 'relations',
    key: { id: `campaign-device#${campaignId}#${deviceId}` },
    consistent: true,
  });
  const reads = createCampaignSeries({
    access: {
      forCaller: () => ({
        check: async () => (allowed ? { allowed: true, via: 'campaign-user' } : { allowed: false }),
        require: async () => ({ allowed: true }),
      }),
      readAhead: () => [],
    },
    campaigns: {
      keyRead: (id) => ({ table: 'campaigns', key: { id }, consistent: true }),
      get: async () => campaign,
    },
    holds: { deviceIds: async () => listed, holdRead },
    dataAccess: {
      readAhead: (_caller, id) => [{ table: 'devices', key: { id }, consistent: true }],
      resolve: async (_caller, id) => {
        const found = devices[id];
        if (!found) throw new NotFound(`Device not found: ${id}`);
        if (found instanceof Error) throw found;
        return found;
      },
    },
    readTogether: async (keys): Promise<ReadAhead> => {
      batches.push([...keys]);
      const ids = new Set(held.map((id) => holdRead('camp-1', id).key.id));
      return {
        has: () => true,
        item: (read) => (read.table === 'relations' && ids.has(String(read.key.id)) ? { id: read.key.id } : undefined),
      };
    },
    points: createSeriesPoints({
      readings: {
        scan: async function* (id: string, part: { from: number; to: number }) {
          yield (readings[id] ?? []).filter((r) => r.timestamp >= part.from && r.timestamp <= part.to);
        },
      },
      rollups: async (id) => hourly(readings[id] ?? []),
    }),
    now: () => now,
  });
  return { reads, batches };
};

describe('campaignSeries.compare', () => {
  it('charts every device on one time axis, one mean line per device and measurement', async () => {
    const from = now - 30 * DAY_MS;
    const { reads, batches } = make({
      campaign: campaignOf(from, now + 30 * DAY_MS),
      listed: ['dev-b', 'dev-a'],
      devices: { 'dev-a': accessOf('dev-a'), 'dev-b': accessOf('dev-b') },
      readings: {
        'dev-a': every10(from, now, () => ({ temperature: 10, pm2_5: 4 })),
        'dev-b': every10(now - 10 * DAY_MS, now, () => ({ temperature: 20 })),
      },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });

    expect(answer).toMatchObject({ campaignId: 'camp-1', name: 'Lake shore', from, to: now, resolution: 'hour' });
    expect(answer.bucketMs).toBe(HOUR);
    // Devices in id order (their colours stay put), each with its name.
    expect(answer.devices.map((d) => [d.deviceId, d.status, d.name])).toEqual([
      ['dev-a', 'shown', 'Device dev-a'],
      ['dev-b', 'shown', 'Device dev-b'],
    ]);
    // The measurement both devices share first.
    expect(answer.measurements).toEqual([
      { name: 'temperature', label: 'Temperature', unit: '°C' },
      { name: 'pm2_5', label: 'PM2.5', unit: 'µg/m³' },
    ]);
    const [a, b] = answer.devices;
    expect(Object.keys(a!.series).sort()).toEqual(['pm2_5', 'temperature']);
    expect(Object.keys(b!.series)).toEqual(['temperature']);
    // Aligned with the shared t: b has values only in its last 10 days, means only (no min/max).
    for (const line of [a!.series.temperature!, b!.series.temperature!])
      expect(line.mean).toHaveLength(answer.t.length);
    expect(a!.series.temperature!.mean.every((v) => v === 10)).toBe(true);
    const bValues = answer.t.filter((_, i) => b!.series.temperature!.mean[i] !== null);
    expect(bValues[0]).toBeGreaterThanOrEqual(now - 10 * DAY_MS - HOUR);
    expect(b!.series.temperature!.mean.filter((v) => v !== null).every((v) => v === 20)).toBe(true);
    expect(a!.series.temperature).not.toHaveProperty('min');
    expect(a!.series.temperature!.gapMs).toBe(3 * HOUR);
    // Every device's keys, with its hold, in one read.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((k) => k.table).sort()).toEqual(['devices', 'devices', 'relations', 'relations']);
  });

  it('lists a device the caller may not see, or that does not exist, without failing the comparison', async () => {
    const { reads } = make({
      campaign: campaignOf(now - DAY_MS, now + DAY_MS),
      listed: ['dev-a', 'dev-hidden', 'dev-gone'],
      devices: { 'dev-a': accessOf('dev-a'), 'dev-hidden': new Forbidden('You do not have access to this device') },
      readings: { 'dev-a': every10(now - DAY_MS, now, () => ({ temperature: 10 })), 'dev-hidden': [] },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    expect(answer.devices.map((d) => [d.deviceId, d.status])).toEqual([
      ['dev-a', 'shown'],
      ['dev-gone', 'not-found'],
      ['dev-hidden', 'no-access'],
    ]);
    const hidden = answer.devices[2]!;
    expect(hidden).toEqual({
      deviceId: 'dev-hidden',
      status: 'no-access',
      message: 'You do not have access to this device',
      series: {},
    });
    expect(answer.resolution).toBe('minute');
  });

  it("clips each device to its tier's window, and says so, instead of refusing the comparison", async () => {
    const from = now - 30 * DAY_MS;
    const { reads } = make({
      campaign: campaignOf(from, now),
      listed: ['dev-tier0', 'dev-tier2'],
      devices: {
        'dev-tier0': accessOf('dev-tier0', { tier: tierRow(DEFAULT_TIERS.sd1, 'tier0') }),
        'dev-tier2': accessOf('dev-tier2'),
      },
      readings: {
        'dev-tier0': every10(from, now, () => ({ temperature: 1 })),
        'dev-tier2': every10(from, now, () => ({ temperature: 2 })),
      },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    const [tier0, tier2] = answer.devices;
    expect(tier0).toMatchObject({ status: 'shown', from: now - 7 * DAY_MS, tier: { tier: 'tier0', name: 'Tier 0' } });
    expect(tier0!.message).toMatch(/reach back 7 days on Tier 0 of SD1 devices; Tier 1 unlocks older data/);
    // Nothing of it before its window: only whole hours inside it count.
    const firstShown = answer.t[tier0!.series.temperature!.mean.findIndex((v) => v !== null)]!;
    expect(firstShown).toBeGreaterThanOrEqual(now - 7 * DAY_MS);
    expect(tier2).toMatchObject({ status: 'shown', from });
    expect(tier2!.message).toBeUndefined();
  });

  it('notes a tier clip only when it costs the chart a point', async () => {
    // The campaign began 30 days and 20 minutes ago; Tier 1 shows 30 days: 20 minutes, less than an hour's point.
    const from = now - 30 * DAY_MS - 20 * MINUTE;
    const { reads } = make({
      campaign: campaignOf(from, now),
      listed: ['dev-tier1'],
      devices: { 'dev-tier1': accessOf('dev-tier1', { tier: tierRow(DEFAULT_TIERS.sd1, 'tier1') }) },
      readings: { 'dev-tier1': every10(from, now, () => ({ temperature: 1 })) },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    expect(answer.bucketMs).toBe(HOUR);
    expect(answer.devices[0]).toMatchObject({ status: 'shown', from: now - 30 * DAY_MS });
    expect(answer.devices[0]!.message).toBeUndefined();
  });

  it('says a device shows nothing when the whole range lies before its tier window', async () => {
    const { reads } = make({
      campaign: campaignOf(now - 60 * DAY_MS, now - 20 * DAY_MS),
      listed: ['dev-tier0'],
      devices: { 'dev-tier0': accessOf('dev-tier0', { tier: tierRow(DEFAULT_TIERS.sd1, 'tier0') }) },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    expect(answer.devices[0]).toMatchObject({ status: 'before-window', name: 'Device dev-tier0', series: {} });
    // The campaign began 60 days ago: the tier that reaches back that far.
    expect(answer.devices[0]!.message).toMatch(/7 days on Tier 0 of SD1 devices; Tier 2 unlocks older data/);
  });

  it("keeps a campaign member's device to the member's campaign windows", async () => {
    const from = now - 10 * DAY_MS;
    const windows = [{ startsAt: from, endsAt: now - 5 * DAY_MS }];
    const { reads } = make({
      campaign: campaignOf(from, now),
      listed: ['dev-a'],
      devices: { 'dev-a': accessOf('dev-a', { route: 'campaign', windows }) },
      readings: { 'dev-a': every10(from, now, () => ({ temperature: 3 })) },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    const line = answer.devices[0]!.series.temperature!;
    const last = answer.t.filter((_, i) => line.mean[i] !== null).at(-1)!;
    expect(last).toBeLessThanOrEqual(now - 5 * DAY_MS);
  });

  it('leaves out a device whose hold is gone although the index still lists it', async () => {
    const { reads } = make({
      campaign: campaignOf(now - DAY_MS, now),
      listed: ['dev-a', 'dev-removed'],
      held: ['dev-a'],
      devices: { 'dev-a': accessOf('dev-a'), 'dev-removed': accessOf('dev-removed') },
    });
    expect((await reads.compare(caller, 'camp-1', { width: 800 })).devices.map((d) => d.deviceId)).toEqual(['dev-a']);
  });

  it('charts the range asked for inside the window, and refuses one wholly outside it', async () => {
    const { reads } = make({
      campaign: campaignOf(now - 20 * DAY_MS, now - 10 * DAY_MS),
      listed: [],
      devices: {},
    });
    const inside = await reads.compare(caller, 'camp-1', {
      from: now - 30 * DAY_MS,
      to: now - 15 * DAY_MS,
      width: 800,
    });
    expect([inside.from, inside.to]).toEqual([now - 20 * DAY_MS, now - 15 * DAY_MS]);
    const whole = await reads.compare(caller, 'camp-1', { width: 800 });
    expect([whole.from, whole.to]).toEqual([now - 20 * DAY_MS, now - 10 * DAY_MS]);
    await expect(reads.compare(caller, 'camp-1', { from: now - 5 * DAY_MS, width: 800 })).rejects.toThrow(
      /outside the campaign's window/,
    );
  });

  it('answers a campaign that has not started with its devices and nothing to chart', async () => {
    const { reads } = make({
      campaign: campaignOf(now + DAY_MS, now + 2 * DAY_MS),
      listed: ['dev-a'],
      devices: { 'dev-a': accessOf('dev-a') },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    expect(answer.t).toEqual([]);
    expect(answer.devices).toEqual([
      expect.objectContaining({ deviceId: 'dev-a', status: 'shown', name: 'Device dev-a', series: {} }),
    ]);
  });

  it('refuses a caller without view on the campaign, and a campaign without a record', async () => {
    const denied = make({ campaign: campaignOf(0, 1), allowed: false, listed: [], devices: {} });
    await expect(denied.reads.compare(caller, 'camp-1', { width: 800 })).rejects.toThrow(
      'You do not have access to this campaign',
    );
    const missing = make({ listed: [], devices: {} });
    await expect(missing.reads.compare(caller, 'camp-1', { width: 800 })).rejects.toThrow('Campaign not found: camp-1');
  });

  it(`compares at most ${MAX_COMPARED_DEVICES} devices and says how many more the campaign holds`, async () => {
    const listed = Array.from({ length: MAX_COMPARED_DEVICES + 3 }, (_, i) => `dev-${String(i).padStart(3, '0')}`);
    const { reads } = make({
      campaign: campaignOf(now - DAY_MS, now),
      listed,
      devices: Object.fromEntries(listed.map((id) => [id, accessOf(id)])),
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    expect(answer.devices).toHaveLength(MAX_COMPARED_DEVICES);
    expect(answer.moreDevices).toBe(3);
  });

  it('asks only for the measurements named, in their order', async () => {
    const { reads } = make({
      campaign: campaignOf(now - DAY_MS, now),
      listed: ['dev-a'],
      devices: { 'dev-a': accessOf('dev-a') },
      readings: { 'dev-a': every10(now - DAY_MS, now, () => ({ temperature: 1, pm2_5: 2, co2: 400 })) },
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800, measurements: ['temperature', 'co2'] });
    expect(answer.measurements.map((m) => m.name)).toEqual(['temperature', 'co2']);
    expect(Object.keys(answer.devices[0]!.series).sort()).toEqual(['co2', 'temperature']);
  });

  it("gives a measurement the unit most devices declare, and a device's own when it differs", async () => {
    const widget = (id: string, unit: string) =>
      accessOf(id, { device: { ...accessOf(id).device, measurementUnits: { widget: unit } } });
    const { reads } = make({
      campaign: campaignOf(now - DAY_MS, now),
      listed: ['dev-a', 'dev-b', 'dev-c'],
      devices: { 'dev-a': widget('dev-a', 'wd'), 'dev-b': widget('dev-b', 'wd'), 'dev-c': widget('dev-c', 'kwd') },
      readings: Object.fromEntries(
        ['dev-a', 'dev-b', 'dev-c'].map((id) => [id, every10(now - DAY_MS, now, () => ({ widget: 1 }))]),
      ),
    });
    const answer = await reads.compare(caller, 'camp-1', { width: 800 });
    expect(answer.measurements).toEqual([{ name: 'widget', label: 'widget', unit: 'wd' }]);
    expect(answer.devices.map((d) => d.series.widget!.unit)).toEqual([undefined, undefined, 'kwd']);
  });
});
