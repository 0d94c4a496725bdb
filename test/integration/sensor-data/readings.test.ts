import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import { nextHourStart, wellInsidePeriod } from '../../support/clock';
import { freshDevice, setTier } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, stack } from '../../support/stack';

/**
 * The readings and chart reads through the local gateway: spec §9 paging (50 by default, newest first, offset),
 * chart series bucketed from raw readings with their labels and units, and the tiers table.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const store = () => createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });
const guest = () => apiAs('sensor-data');

describe('readings', () => {
  let deviceId: string;
  let now: number;

  beforeAll(async () => {
    deviceId = (await freshDevice({ visibility: 'public' })).id;
    // The 7-day chart's last hours depend on the hour under way at the request: the suite runs inside the hour of `now`.
    await wellInsidePeriod(nextHourStart, 2 * 60_000);
    now = Math.floor(Date.now() / MINUTE) * MINUTE;
    // 120 minutes of readings, the newest a minute ago, with pm2_5 = the age in minutes.
    await store().write(
      deviceId,
      Array.from({ length: 120 }, (_, i) => ({
        timestamp: now - (i + 1) * MINUTE,
        values: { pm2_5: i + 1, temperature: 20 + (i % 10) / 10 },
      })),
      now,
    );
  }, 200_000);

  it('pages 50 at a time by default, newest first, and offset continues where a page ended', async () => {
    const first = await guest().listReadings({ params: { id: deviceId } });
    expect(first.items).toHaveLength(50);
    expect(first).toMatchObject({ limit: 50, offset: 0, hasMore: true, tier: { tier: 'tier0', name: 'Tier 0' } });
    expect(first.items.map((r) => r.values.pm2_5)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    const last = await guest().listReadings({ params: { id: deviceId }, query: { limit: 50, offset: 100 } });
    expect(last.items.map((r) => r.values.pm2_5)).toEqual(Array.from({ length: 20 }, (_, i) => i + 101));
    expect(last.hasMore).toBe(false);
  });

  it('reads only the asked range, both ends included', async () => {
    const page = await guest().listReadings({
      params: { id: deviceId },
      query: { from: now - 10 * MINUTE, to: now - 5 * MINUTE },
    });
    expect(page.items.map((r) => r.values.pm2_5)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(page.window).toEqual({ from: now - 10 * MINUTE, to: now - 5 * MINUTE });
  });

  it('refuses a bad page or range with a clear 400', async () => {
    for (const [query, message] of [
      [{ limit: 0 }, 'limit is at least 1'],
      [{ limit: 501 }, 'limit is at most 500'],
      [{ offset: -1 }, 'offset is at least 0'],
      [{ from: 'yesterday' }, 'from must be a time in milliseconds'],
    ] as const) {
      const refusal = await apiRejection(guest().listReadings({ params: { id: deviceId }, query: query as never }));
      expect(refusal.status).toBe(400);
      expect(refusal.message).toContain(message);
    }
  });

  it('charts two hours of raw readings as min, max and mean per bucket, with labels and units', async () => {
    const series = await guest().series({
      params: { id: deviceId },
      query: { from: now - 2 * HOUR, to: now, width: 10 },
    });
    expect(series).toMatchObject({ deviceId, resolution: 'minute', bucketMs: 12 * MINUTE });
    expect(Object.keys(series.series).sort()).toEqual(['pm2_5', 'temperature']);
    const pm = series.series.pm2_5!;
    expect(pm).toMatchObject({ label: 'PM2.5', unit: 'µg/m³' });
    expect(series.series.temperature).toMatchObject({ label: 'Temperature', unit: '°C' });
    // Every column lines up with t; min ≤ mean ≤ max wherever a bucket holds readings.
    for (const column of [pm.min, pm.max, pm.mean]) expect(column).toHaveLength(series.t.length);
    const filled = series.t.map((_, i) => i).filter((i) => pm.mean[i] !== null);
    expect(filled.length).toBeGreaterThanOrEqual(10);
    for (const i of filled) {
      expect(pm.min[i]!).toBeLessThanOrEqual(pm.mean[i]!);
      expect(pm.mean[i]!).toBeLessThanOrEqual(pm.max[i]!);
    }
    expect(Math.max(...(pm.max.filter((v) => v !== null) as number[]))).toBe(120);
    expect(Math.min(...(pm.min.filter((v) => v !== null) as number[]))).toBe(1);
  });

  it('charts only the measurements asked for, and names a bad one', async () => {
    const series = await guest().series({
      params: { id: deviceId },
      query: { from: now - HOUR, measurements: 'temperature,co2' },
    });
    expect(Object.keys(series.series)).toEqual(['temperature', 'co2']);
    expect(series.series.co2!.mean.every((v) => v === null)).toBe(true);
    const bad = await apiRejection(guest().series({ params: { id: deviceId }, query: { measurements: 'PM 2.5' } }));
    expect(bad.status).toBe(400);
  });

  it('a 7-day chart of hourly points shows the last hours from the readings while their roll-ups have not landed', async () => {
    // The readings were written straight into the table: no roll-up exists, as in the cloud until the hour is over.
    const series = await guest().series({
      params: { id: deviceId },
      query: { from: now - 7 * 24 * HOUR + MINUTE, to: now, width: 168, measurements: 'pm2_5' },
    });
    expect(series.resolution).toBe('hour');
    // The hour under way (empty when the run starts on the hour) and the one before; the 120 minutes reach into a
    // third hour, which waits for its roll-up. pm2_5 is each reading's age in minutes.
    const hour = Math.floor(now / HOUR) * HOUR;
    const minutesIn = (now - hour) / MINUTE;
    const pm = series.series.pm2_5!;
    const filled = series.t.filter((_, i) => pm.mean[i] !== null);
    expect(filled).toEqual(minutesIn > 0 ? [hour - HOUR, hour] : [hour - HOUR]);
    expect(pm.mean[series.t.indexOf(hour - HOUR)]).toBeCloseTo(minutesIn + 30.5, 6);
  });

  it('a year-long range reads the hourly roll-ups in about one bucket per pixel', async () => {
    await setTier(deviceId, 'tier2');
    const response = await fetch(
      `${areaUrl('sensor-data')}/devices/${deviceId}/series?from=${Date.now() - 364 * 24 * HOUR}`,
    );
    expect(response.status).toBe(200);
    const body = await response.text();
    const parsed = JSON.parse(body) as { resolution: string; t: number[] };
    expect(parsed.resolution).toBe('hour');
    expect(parsed.t.length).toBeLessThanOrEqual(801);
  });
});

describe('tiers', () => {
  it('lists spec §9 table for every product line', async () => {
    const { productLines } = await guest().listTiers({});
    expect(productLines.map((p) => p.productLine)).toEqual(['sd1', 'al30', 'al60', 'al80']);
    const sd1 = productLines[0]!.tiers;
    expect(sd1.map((t) => [t.name, t.features.historicalDataAccessDays, t.features.apiMaxRequests])).toEqual([
      ['Tier 0', 7, 0],
      ['Tier 1', 30, 3_000],
      ['Tier 2', 365, 10_000],
    ]);
  });
});
