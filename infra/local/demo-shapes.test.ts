import type { StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { checkReadings } from '../../functions/data-ingress/domain/validate-readings';
import { createDemoSignal, type DemoProfile, localHour, PROFILE_MEASUREMENTS, seededRandom } from './demo-shapes';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The demo's local time in these tests: Pacific daylight time, UTC−7. */
const PDT = -7 * 60;
/** A fixed start, midnight UTC (17:00 the day before in PDT). */
const T0 = Date.UTC(2026, 4, 11);

/** A week of a device's readings, one a minute, from a fixed seed. */
const week = (profile: DemoProfile, seed = 46) => {
  const signal = createDemoSignal(profile, PDT, seededRandom(seed));
  return Array.from({ length: 7 * 24 * 60 }, (_, i) => signal(T0 + i * MINUTE));
};

/** Each local hour's mean of a measurement over the week: the daily shape with the noise averaged out. */
const hourlyMeans = (readings: StoredReading[], name: string) => {
  const sums = Array.from({ length: 24 }, () => ({ sum: 0, count: 0 }));
  for (const { timestamp, values } of readings) {
    const bucket = sums[Math.floor(localHour(timestamp, PDT))]!;
    bucket.sum += values[name]!;
    bucket.count += 1;
  }
  return sums.map(({ sum, count }) => sum / count);
};

const meanOf = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const hoursOfMax = (means: number[]) => means.indexOf(Math.max(...means));
const hoursOfMin = (means: number[]) => means.indexOf(Math.min(...means));

const correlation = (xs: number[], ys: number[]) => {
  const mx = meanOf(xs);
  const my = meanOf(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
};

describe('the demo devices’ daily shapes', () => {
  const air = week('air');
  const water = week('water');

  it('reads the local hour in any time zone, half-hour ones and across midnight included', () => {
    expect(localHour(Date.UTC(2026, 4, 11, 20, 15), PDT)).toBe(13.25);
    expect(localHour(Date.UTC(2026, 4, 11, 4), PDT)).toBe(21);
    expect(localHour(Date.UTC(2026, 4, 11, 20), 330)).toBe(1.5);
    expect(localHour(Date.UTC(2026, 4, 11, 20), 0)).toBe(20);
  });

  it.each([
    ['air', air],
    ['water', water],
  ] as const)('sends every %s measurement in every reading, each one the ingest accepts', (profile, readings) => {
    expect(
      readings.every((r) => Object.keys(r.values).sort().join() === [...PROFILE_MEASUREMENTS[profile]].sort().join()),
    ).toBe(true);
    const { accepted, rejected } = checkReadings(readings, T0 + 7 * 24 * HOUR);
    expect(rejected).toEqual([]);
    expect(accepted).toHaveLength(readings.length);
  });

  it('keeps each value in a plausible range for a spring week', () => {
    const range = (readings: StoredReading[], name: string) => {
      const values = readings.map((r) => r.values[name]!);
      return [Math.min(...values), Math.max(...values)];
    };
    const within = ([lo, hi]: number[], min: number, max: number) => lo! >= min && hi! <= max;
    expect(within(range(air, 'temperature'), -2, 28)).toBe(true);
    expect(within(range(air, 'humidity'), 25, 100)).toBe(true);
    expect(within(range(air, 'pm2_5'), 0.5, 60)).toBe(true);
    expect(within(range(air, 'co2'), 380, 520)).toBe(true);
    expect(air.every((r) => r.values.pm10! >= r.values.pm2_5!)).toBe(true);
    expect(within(range(water, 'temperature'), 9, 13)).toBe(true);
    expect(within(range(water, 'battery'), 60, 100)).toBe(true);
    expect(within(range(water, 'rssi'), -100, -70)).toBe(true);
  });

  it('makes PM2.5 peak with the morning and evening traffic, well above the small hours', () => {
    const pm = hourlyMeans(air, 'pm2_5');
    const night = meanOf(pm.slice(1, 5));
    expect(meanOf(pm.slice(7, 10))).toBeGreaterThan(2 * night);
    expect(meanOf(pm.slice(17, 21))).toBeGreaterThan(1.8 * night);
    expect([7, 8, 9]).toContain(hoursOfMax(pm));
  });

  it('warms the air by mid-afternoon and cools it by dawn, humidity moving the other way', () => {
    const temperature = hourlyMeans(air, 'temperature');
    expect(hoursOfMax(temperature)).toBeGreaterThanOrEqual(13);
    expect(hoursOfMax(temperature)).toBeLessThanOrEqual(17);
    expect(hoursOfMin(temperature)).toBeGreaterThanOrEqual(1);
    expect(hoursOfMin(temperature)).toBeLessThanOrEqual(5);
    expect(Math.max(...temperature) - Math.min(...temperature)).toBeGreaterThan(8);
    const humidity = hourlyMeans(air, 'humidity');
    expect(hoursOfMin(humidity)).toBe(hoursOfMax(temperature));
    expect(
      correlation(
        air.map((r) => r.values.temperature!),
        air.map((r) => r.values.humidity!),
      ),
    ).toBeLessThan(-0.9);
  });

  it('moves the lake’s water temperature slowly: under a tenth of a degree a minute, peaking in the late afternoon', () => {
    const steps = water.slice(1).map((r, i) => Math.abs(r.values.temperature! - water[i]!.values.temperature!));
    expect(Math.max(...steps)).toBeLessThan(0.1);
    const temperature = hourlyMeans(water, 'temperature');
    expect(hoursOfMax(temperature)).toBeGreaterThanOrEqual(15);
    expect(hoursOfMax(temperature)).toBeLessThanOrEqual(19);
    // The buoy's battery charges by day and drains by night.
    expect(hoursOfMax(hourlyMeans(water, 'battery'))).toBeGreaterThanOrEqual(13);
    expect(hoursOfMin(hourlyMeans(water, 'battery'))).toBeLessThanOrEqual(6);
  });

  it('is noisy, yet the same seed gives the same readings and another seed others', () => {
    const pm = air.map((r) => r.values.pm2_5!);
    // Not a smooth curve: minute to minute, PM2.5 moves.
    expect(new Set(pm.slice(0, 60)).size).toBeGreaterThan(20);
    expect(week('air').slice(0, 100)).toEqual(air.slice(0, 100));
    expect(week('air', 7).slice(0, 100)).not.toEqual(air.slice(0, 100));
  });
});
