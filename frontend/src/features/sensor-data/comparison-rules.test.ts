import type { CampaignSeries, ComparedDevice } from '../../../../shared/contracts/sensor-data-campaigns';
import {
  chartedDevices,
  comparisonLines,
  DASHES,
  hasComparisonData,
  PALETTE_SIZE,
  readoutText,
  styleOf,
} from './comparison-rules';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 5, 1);

const shown = (deviceId: string, series: ComparedDevice['series']): ComparedDevice => ({
  deviceId,
  name: deviceId,
  status: 'shown',
  series,
});

const answerOf = (t: number[], devices: ComparedDevice[]): Pick<CampaignSeries, 't' | 'bucketMs' | 'devices'> => ({
  t,
  bucketMs: HOUR,
  devices,
});

const hours = (...indices: number[]) => indices.map((i) => T0 + i * HOUR);

describe('styleOf', () => {
  it('gives 50 devices 50 different styles: ten colours, then the next dash pattern', () => {
    const styles = Array.from({ length: 50 }, (_, i) => styleOf(i));
    expect(new Set(styles.map((s) => `${s.token}|${s.dash.join(',')}`)).size).toBe(50);
    expect(styles.slice(0, PALETTE_SIZE).every((s) => s.dash.length === 0)).toBe(true);
    expect(styles[0]!.token).toBe('--chart-compare-1');
    expect(styles[PALETTE_SIZE]).toEqual({ token: '--chart-compare-1', dash: DASHES[1] });
  });
});

describe('comparisonLines', () => {
  it("aligns each device's values on the shared axis and joins over buckets that are only another device's", () => {
    // a reports every hour; b every other hour (its gapMs is 6 h): b's line must not break at a's buckets.
    const answer = answerOf(hours(0, 1, 2, 3, 4), [
      shown('a', { temperature: { mean: [1, 2, 3, 4, 5], gapMs: 3 * HOUR } }),
      shown('b', { temperature: { mean: [10, null, 12, null, 14], gapMs: 6 * HOUR } }),
    ]);
    const { data, deviceIds, isolated } = comparisonLines(answer, 'temperature');
    expect(deviceIds).toEqual(['a', 'b']);
    expect([...data[0]]).toEqual(hours(0, 1, 2, 3, 4).map((t) => (t + HOUR / 2) / 1000));
    expect(data[1]).toEqual([1, 2, 3, 4, 5]);
    expect(data[2]).toEqual([10, undefined, 12, undefined, 14]);
    expect(isolated).toEqual([[], []]);
  });

  it("breaks a device's line across its own silence only, with nulls over the buckets between", () => {
    const answer = answerOf(hours(0, 1, 2, 10, 11), [
      shown('a', { temperature: { mean: [1, 2, null, null, 5], gapMs: 3 * HOUR } }),
      shown('b', { temperature: { mean: [1, 2, 3, 4, 5], gapMs: 30 * HOUR } }),
    ]);
    const { data } = comparisonLines(answer, 'temperature');
    // a: silent from hour 1 to hour 11 (> 3 h): null over hours 2 and 10, which only b fills.
    expect(data[1]).toEqual([1, 2, null, null, 5]);
    expect(data[2]).toEqual([1, 2, 3, 4, 5]);
  });

  it('adds a break row between neighbouring buckets when a silence has no bucket inside it', () => {
    const answer = answerOf(hours(0, 1, 9, 10), [shown('a', { pm2_5: { mean: [1, 2, 3, 4], gapMs: 3 * HOUR } })]);
    const { data } = comparisonLines(answer, 'pm2_5');
    expect(data[1]).toEqual([1, 2, null, 3, 4]);
    const xs = [...data[0]];
    expect(xs).toHaveLength(5);
    expect(xs[2]).toBe((T0 + 5 * HOUR + HOUR / 2) / 1000);
    expect(xs.every((x, i) => i === 0 || x > xs[i - 1]!)).toBe(true);
  });

  it('draws a value with no neighbour on its line as a point', () => {
    const answer = answerOf(hours(0, 5, 10, 11), [
      shown('a', { co2: { mean: [400, 410, null, null], gapMs: HOUR } }),
      shown('b', { co2: { mean: [null, null, 500, 510], gapMs: HOUR } }),
    ]);
    const { data, isolated } = comparisonLines(answer, 'co2');
    expect(data[1]).toEqual([400, null, 410, undefined, undefined]);
    expect(isolated[0]).toEqual([0, 2]);
    expect(isolated[1]).toEqual([]);
  });

  it('leaves out devices without the measurement and devices the caller may not see', () => {
    const answer = answerOf(hours(0), [
      shown('a', { temperature: { mean: [1], gapMs: null } }),
      shown('b', { humidity: { mean: [50], gapMs: null } }),
      { deviceId: 'c', status: 'no-access', series: {} },
    ]);
    expect(comparisonLines(answer, 'temperature').deviceIds).toEqual(['a']);
    expect(chartedDevices(answer).map((d) => d.deviceId)).toEqual(['a', 'b']);
    expect(hasComparisonData(answer)).toBe(true);
    expect(hasComparisonData(answerOf([], [shown('a', {})]))).toBe(false);
  });
});

describe('readoutText', () => {
  it('names the device, the value with its unit, and the time', () => {
    expect(readoutText('Lake buoy', 11.2, '°C', '3 Jun, 14:00')).toBe('Lake buoy: 11.2 °C at 3 Jun, 14:00');
    expect(readoutText('Widget', 3, undefined, 'now')).toBe('Widget: 3 at now');
  });
});
