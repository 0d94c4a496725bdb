import fc from 'fast-check';
import { tierFeaturesValueOf, tierTableOf } from '../../../shared/sensor-data/tier-features';
import { DAY_MS, DEFAULT_TIERS, tierRow } from '../../../shared/sensor-data/tiers';
import type { DataAccess } from '../../_shared/sensor-data/data-access';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import { createReadings, tiersTable } from './readings';
import type { RollupColumns } from './series-points';

const HOUR = 3_600_000;
const now = Date.UTC(2025, 5, 15, 12, 30);

const accessOf = (overrides: Partial<DataAccess> = {}): DataAccess => ({
  device: {
    id: 'dev-1',
    name: 'One',
    productLine: 'sd1',
    dataVisibility: 'public',
    state: 'active',
    measurementNames: ['pm2_5', 'widget'],
    measurementUnits: { widget: 'wd' },
  },
  tier: tierRow(DEFAULT_TIERS.sd1, 'tier0'),
  lineTiers: DEFAULT_TIERS.sd1,
  route: 'public',
  permissioned: false,
  windows: null,
  ...overrides,
});

/** An in-memory readings store with the real one's order and range semantics. */
const fakeReadings = (all: StoredReading[]) => ({
  query: async (_id: string, q: { from: number; to: number; order?: 'asc' | 'desc'; limit: number }) => {
    const inRange = all.filter((r) => r.timestamp >= q.from && r.timestamp <= q.to);
    inRange.sort((a, b) => (q.order === 'asc' ? a.timestamp - b.timestamp : b.timestamp - a.timestamp));
    return inRange.slice(0, q.limit);
  },
  scan: async function* (_id: string, q: { from: number; to: number }) {
    yield all.filter((r) => r.timestamp >= q.from && r.timestamp <= q.to).sort((a, b) => a.timestamp - b.timestamp);
  },
});

const minutes = (count: number, end = now) =>
  Array.from({ length: count }, (_, i) => ({ timestamp: end - i * 60_000, values: { pm2_5: i } }));

const make = (access: DataAccess, readings: StoredReading[], rollups: RollupColumns = { t: [], m: {} }) =>
  createReadings({
    dataAccess: { resolve: async () => access },
    readings: fakeReadings(readings),
    rollups: async () => rollups,
    now: () => now,
  });

describe('readings.list', () => {
  it('pages newest first by offset and limit, saying whether more follow', async () => {
    const reads = make(accessOf(), minutes(7));
    const first = await reads.list(undefined, 'dev-1', { limit: 3, offset: 0 });
    expect(first.items.map((r) => r.values.pm2_5)).toEqual([0, 1, 2]);
    expect(first.hasMore).toBe(true);
    const last = await reads.list(undefined, 'dev-1', { limit: 3, offset: 6 });
    expect(last.items.map((r) => r.values.pm2_5)).toEqual([6]);
    expect(last.hasMore).toBe(false);
    expect(last.tier).toEqual({ tier: 'tier0', name: 'Tier 0' });
    expect(last.window).toEqual({ from: now - 7 * DAY_MS, to: now });
  });

  it('skips readings outside a campaign window without counting them', async () => {
    const windows = [{ startsAt: now - 5 * 60_000, endsAt: now - 3 * 60_000 }];
    const reads = make(accessOf({ route: 'campaign', permissioned: true, windows }), minutes(10));
    const page = await reads.list(undefined, 'dev-1', { limit: 2, offset: 1 });
    expect(page.items.map((r) => r.values.pm2_5)).toEqual([4, 5]);
    expect(page.hasMore).toBe(false);
  });

  it('refuses a range before the window with the tier that unlocks it', async () => {
    const reads = make(accessOf(), []);
    await expect(reads.list(undefined, 'dev-1', { from: now - 20 * DAY_MS, limit: 5, offset: 0 })).rejects.toThrow(
      /Tier 1 unlocks older data/,
    );
  });
});

describe('readings.list with its first Query started early (beside the session record)', () => {
  /** The fake store, counting the Queries the page makes itself. */
  const counted = (all: StoredReading[]) => {
    const store = fakeReadings(all);
    const calls: { from: number; to: number }[] = [];
    return {
      calls,
      store: {
        ...store,
        query: (id: string, q: Parameters<typeof store.query>[1]) => {
          calls.push({ from: q.from, to: q.to });
          return store.query(id, q);
        },
      },
    };
  };
  const makeCounted = (access: DataAccess, all: StoredReading[]) => {
    const { calls, store } = counted(all);
    const reads = createReadings({
      dataAccess: { resolve: async () => access },
      readings: store,
      rollups: async () => ({ t: [], m: {} }),
      now: () => now,
    });
    return { calls, reads };
  };

  it('answers the page from the early Query alone when the day it ends in holds enough', async () => {
    const { calls, reads } = makeCounted(accessOf(), minutes(300));
    const query = { limit: 50, offset: 0 };
    const early = reads.startPage('dev-1', query);
    expect(calls).toEqual([{ from: Date.UTC(2025, 5, 15), to: now }]);
    const page = await reads.list(undefined, 'dev-1', query, accessOf(), early);
    expect(calls).toHaveLength(1);
    expect(page.items.map((r) => r.values.pm2_5)).toEqual(minutes(50).map((r) => r.values.pm2_5));
    expect(page.hasMore).toBe(true);
  });

  it('reads on before the early Query’s day only what the page still wants', async () => {
    // Ten readings today, the rest yesterday: the page wants 21, so it reads 11 more from the day before.
    const all = minutes(40, Date.UTC(2025, 5, 15) + 9 * 60_000);
    const { calls, reads } = makeCounted(accessOf(), all);
    const query = { limit: 20, offset: 0 };
    const page = await reads.list(undefined, 'dev-1', query, accessOf(), reads.startPage('dev-1', query));
    expect(calls[1]).toEqual({ from: now - 7 * DAY_MS, to: Date.UTC(2025, 5, 15) - 1 });
    expect(page.items).toEqual(all.slice(0, 20));
  });

  it('starts nothing early for a page at an offset: a refused caller makes the store read one first page at most', () => {
    const { calls, reads } = makeCounted(accessOf(), minutes(300));
    expect(reads.startPage('dev-1', { limit: 500, offset: 10 })).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('answers exactly what a page read after access answers, whatever the data, range, tier and windows', async () => {
    const day = Date.UTC(2025, 5, 15);
    const time = fc.integer({ min: day - 10 * DAY_MS, max: now + DAY_MS });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(time, { maxLength: 60 }),
        fc.record(
          {
            from: time,
            to: time,
            limit: fc.integer({ min: 1, max: 8 }),
            offset: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 })),
          },
          { requiredKeys: ['limit', 'offset'] },
        ),
        fc.constantFrom('tier0', 'tier1', 'tier2'),
        fc.option(fc.array(fc.record({ startsAt: time, endsAt: time }), { maxLength: 2 }), { nil: null }),
        async (times, query, tier, windows) => {
          const all = times.map((timestamp, i) => ({ timestamp, values: { pm2_5: i } }));
          const access = accessOf({ tier: tierRow(DEFAULT_TIERS.sd1, tier), windows });
          const outcome = (page: Promise<unknown>) => page.catch((error: Error) => error.message);
          const { reads } = makeCounted(access, all);
          const late = await outcome(reads.list(undefined, 'dev-1', query, access));
          const early = await outcome(reads.list(undefined, 'dev-1', query, access, reads.startPage('dev-1', query)));
          expect(early).toEqual(late);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readings.series', () => {
  it('buckets raw readings for a short range, with labels and units', async () => {
    const reads = make(accessOf(), minutes(120));
    const series = await reads.series(undefined, 'dev-1', { from: now - 2 * HOUR, to: now, width: 2 });
    expect(series.resolution).toBe('minute');
    expect(series.bucketMs).toBe(HOUR);
    expect(series.series.pm2_5?.label).toBe('PM2.5');
    expect(series.series.pm2_5?.unit).toBe('µg/m³');
    const total = series.series.pm2_5!.max.filter((v) => v !== null);
    expect(Math.max(...(total as number[]))).toBe(119);
  });

  it('lists only buckets holding a value, and breaks the line only at a real silence', async () => {
    // A device reporting every 10 minutes for a day, off for 6 hours in the middle.
    const readings = Array.from({ length: 145 }, (_, i) => ({
      timestamp: now - i * 10 * 60_000,
      values: { pm2_5: i },
    })).filter((r) => r.timestamp <= now - 15 * HOUR || r.timestamp > now - 9 * HOUR);
    const series = await make(accessOf(), readings).series(undefined, 'dev-1', {
      from: now - DAY_MS,
      to: now,
      width: 800,
    });
    expect(series.bucketMs).toBe(2 * 60_000);
    expect(series.t).toHaveLength(readings.length);
    const pm = series.series.pm2_5!;
    expect(pm.mean.every((v) => v !== null)).toBe(true);
    expect(pm.gapMs).toBe(30 * 60_000);
    const silences = series.t.slice(1).filter((t, i) => t - series.t[i]! > pm.gapMs!);
    expect(silences).toHaveLength(1);
  });

  it('takes hourly roll-ups for a long range, and only hours wholly inside the window', async () => {
    const start = now - 30 * DAY_MS;
    const firstHour = Math.floor(start / HOUR) * HOUR;
    const rollups: RollupColumns = {
      t: [firstHour, firstHour + HOUR],
      m: { widget: { min: [1, 2], max: [3, 4], mean: [2, 3], count: [60, 60] } },
    };
    const reads = make(accessOf({ tier: tierRow(DEFAULT_TIERS.sd1, 'tier1') }), [], rollups);
    const series = await reads.series(undefined, 'dev-1', { from: start, width: 800 });
    expect(series.resolution).toBe('hour');
    const seen = series.series.widget!.mean.filter((v) => v !== null);
    // The hour that began before the window's start is left out.
    expect(seen).toEqual([3]);
    expect(series.series.widget!.unit).toBe('wd');
  });
});

describe('readings.series: the hours not yet rolled up (hourly roll-ups, decision 042)', () => {
  // 12:30: the roll-ups reach 11:00 at best; 12:00 is under way and rolled up at 13:01.
  const hourOf = (time: number) => Math.floor(time / HOUR) * HOUR;
  const seven = { from: now - 7 * DAY_MS, width: 168 };
  const pointAt = (series: Awaited<ReturnType<ReturnType<typeof make>['series']>>, hour: number) =>
    series.series.pm2_5!.mean[series.t.indexOf(hour)];

  it('reads the hour under way from the readings, and nothing again of the hours rolled up', async () => {
    const rolled = [hourOf(now) - 2 * HOUR, hourOf(now) - HOUR];
    const rollups: RollupColumns = {
      t: rolled,
      m: { pm2_5: { min: [10, 20], max: [10, 20], mean: [10, 20], count: [1, 1] } },
    };
    const readings = [
      // Already in the 11:00 roll-up: counted once.
      { timestamp: hourOf(now) - HOUR + 5 * 60_000, values: { pm2_5: 20 } },
      { timestamp: hourOf(now) + 5 * 60_000, values: { pm2_5: 30 } },
      { timestamp: hourOf(now) + 25 * 60_000, values: { pm2_5: 50 } },
    ];
    const series = await make(accessOf(), readings, rollups).series(undefined, 'dev-1', seven);
    expect(series.resolution).toBe('hour');
    expect([pointAt(series, rolled[0]!), pointAt(series, rolled[1]!), pointAt(series, hourOf(now))]).toEqual([
      10, 20, 40,
    ]);
  });

  it('also the hour before when its roll-up has not landed yet, but not further back', async () => {
    const readings = [
      { timestamp: hourOf(now) - 3 * HOUR + 60_000, values: { pm2_5: 1 } },
      { timestamp: hourOf(now) - HOUR + 60_000, values: { pm2_5: 7 } },
      { timestamp: hourOf(now) + 60_000, values: { pm2_5: 9 } },
    ];
    const series = await make(accessOf(), readings).series(undefined, 'dev-1', seven);
    expect(series.t.filter((t) => pointAt(series, t) !== null)).toEqual([hourOf(now) - HOUR, hourOf(now)]);
  });

  it('shows nothing of the readings outside the readable window', async () => {
    // A 7-day window ending a day ago (a campaign's end, say): no hour near now is read.
    const ended = accessOf({ route: 'campaign', windows: [{ startsAt: now - 7 * DAY_MS, endsAt: now - DAY_MS }] });
    const series = await make(ended, [{ timestamp: hourOf(now) + 60_000, values: { pm2_5: 9 } }]).series(
      undefined,
      'dev-1',
      seven,
    );
    expect(series.series.pm2_5?.mean.every((v) => v === null) ?? true).toBe(true);
  });
});

describe('readings.summary', () => {
  it('says the windows of each purpose for this caller and what the next tier unlocks', async () => {
    const summary = await make(accessOf(), []).summary(undefined, 'dev-1');
    expect(summary.tier.name).toBe('Tier 0');
    expect(summary.nextTier?.name).toBe('Tier 1');
    expect(summary.nextTier?.features.historicalDataAccessDays).toBe(30);
    expect(summary.windows.view).toEqual({ days: 7, from: now - 7 * DAY_MS });
    expect(summary.windows.download).toEqual({ days: null, from: null });
    expect(summary.measurements).toEqual([
      { name: 'pm2_5', label: 'PM2.5', unit: 'µg/m³' },
      { name: 'widget', label: 'widget', unit: 'wd' },
    ]);
  });

  it("carries the line's tiers as the table in force says, and takes the next tier from them", async () => {
    const stored = tierTableOf(tierFeaturesValueOf(DEFAULT_TIERS));
    const lineTiers = stored.sd1.map((row) =>
      row.tier === 'tier1' ? { ...row, features: { ...row.features, historicalDataAccessDays: 60 } } : row,
    );
    const summary = await make(accessOf({ lineTiers }), []).summary(undefined, 'dev-1');
    expect(summary.nextTier?.features.historicalDataAccessDays).toBe(60);
    expect(summary.tiers.map((t) => [t.name, t.features.historicalDataAccessDays])).toEqual([
      ['Tier 0', 7],
      ['Tier 1', 60],
      ['Tier 2', 365],
    ]);
  });

  it("has no next tier on the line's highest tier", async () => {
    const summary = await make(accessOf({ tier: tierRow(DEFAULT_TIERS.sd1, 'tier2') }), []).summary(undefined, 'dev-1');
    expect(summary.nextTier).toBeUndefined();
  });
});

describe('tiersTable', () => {
  it('lists every product line with its tiers, from the table it is given', () => {
    const value = tierFeaturesValueOf(DEFAULT_TIERS);
    value.al60.tier3!.apiMaxRequests = 20_000;
    const table = tiersTable(tierTableOf(value));
    expect(table.productLines.map((p) => p.productLine)).toEqual(['sd1', 'al30', 'al60', 'al80']);
    expect(table.productLines[1]!.tiers.map((t) => t.name)).toEqual(['Free', 'Tier 1', 'Tier 2', 'Tier 3']);
    expect(table.productLines[2]!.tiers[3]!.features.apiMaxRequests).toBe(20_000);
    expect(table.productLines[1]!.tiers[3]!.features.apiMaxRequests).toBe(10_000);
  });
});
