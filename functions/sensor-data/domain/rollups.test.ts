import { DAY_MS, HOUR_MS, hoursOf } from '../../../shared/sensor-data/chart-files';
import { addReadings, affectedBy, combine, toChartObject } from './rollups';

const T0 = Date.UTC(2025, 0, 31, 22, 0, 0);

describe('roll-up math', () => {
  it('keeps count, sum, min and max per measurement, ignoring values that are not finite', () => {
    const m = addReadings({}, [
      { timestamp: T0, values: { pm2_5: 4, co2: 400 } },
      { timestamp: T0 + 1_000, values: { pm2_5: -2 } },
      { timestamp: T0 + 2_000, values: { pm2_5: 10, co2: Number.NaN } },
    ]);
    expect(m).toEqual({ pm2_5: { n: 3, s: 12, lo: -2, hi: 10 }, co2: { n: 1, s: 400, lo: 400, hi: 400 } });
  });

  it('keeps a measurement named like an Object.prototype member (a device may send `constructor`) as any other', () => {
    const hour = addReadings({}, [
      { timestamp: T0, values: { constructor: 2 } },
      { timestamp: T0 + 1_000, values: { constructor: 4 } },
    ]);
    expect(hour).toEqual({ constructor: { n: 2, s: 6, lo: 2, hi: 4 } });
    expect(combine([hour, { constructor: { n: 1, s: 9, lo: 9, hi: 9 } }])).toEqual({
      constructor: { n: 3, s: 15, lo: 2, hi: 9 },
    });
    expect(toChartObject('d1', 'hour', '2025-01', [{ ts: T0, m: {} }]).m).toEqual({});
  });

  it('combines hours into a day whose mean is weighted by the hours’ counts', () => {
    const day = combine([
      { t: { n: 1, s: 10, lo: 10, hi: 10 } },
      { t: { n: 3, s: 6, lo: 1, hi: 3 }, h: { n: 1, s: 50, lo: 50, hi: 50 } },
    ]);
    expect(day).toEqual({ t: { n: 4, s: 16, lo: 1, hi: 10 }, h: { n: 1, s: 50, lo: 50, hi: 50 } });
    expect(day.t!.s / day.t!.n).toBe(4);
  });

  it('does not change its inputs when combining (a recompute from the same hours gives the same day)', () => {
    const hour = { t: { n: 1, s: 1, lo: 1, hi: 1 } };
    combine([hour, hour]);
    expect(hour.t).toEqual({ n: 1, s: 1, lo: 1, hi: 1 });
  });

  it('lists distinct hour starts in order', () => {
    expect(hoursOf([T0 + HOUR_MS + 5, T0 + 3, T0 + 59 * 60_000, T0 + HOUR_MS])).toEqual([T0, T0 + HOUR_MS]);
  });

  it('finds the days, months and years the hours touch, across a month and a year boundary', () => {
    const newYear = Date.UTC(2025, 0, 1);
    const a = affectedBy([T0, T0 + 3 * HOUR_MS, newYear - HOUR_MS]);
    expect(a.days).toEqual([newYear - DAY_MS, Date.UTC(2025, 0, 31), Date.UTC(2025, 1, 1)]);
    expect(a.months).toEqual(['2024-12', '2025-01', '2025-02']);
    expect(a.years).toEqual(['2024', '2025']);
  });

  it('writes columns in time order with null where a measurement has no value in a bucket', () => {
    const object = toChartObject('dev-1', 'hour', '2025-01', [
      { ts: T0 + HOUR_MS, m: { co2: { n: 2, s: 900, lo: 400, hi: 500 } } },
      { ts: T0, m: { pm2_5: { n: 4, s: 10, lo: 1, hi: 4 }, co2: { n: 1, s: 420, lo: 420, hi: 420 } } },
    ]);
    expect(object).toEqual({
      deviceId: 'dev-1',
      resolution: 'hour',
      period: '2025-01',
      t: [T0, T0 + HOUR_MS],
      m: {
        co2: { min: [420, 400], max: [420, 500], mean: [420, 450], count: [1, 2] },
        pm2_5: { min: [1, null], max: [4, null], mean: [2.5, null], count: [4, null] },
      },
    });
  });
});
