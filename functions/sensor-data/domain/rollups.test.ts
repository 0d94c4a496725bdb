import { DAY_MS, HOUR_MS, hoursOf } from '../../../shared/sensor-data/chart-files';
import type { ReadingView } from '../../_shared/sensor-data/quality-profile';
import { addReadings, affectedBy, bucketBuilder, combine, combineBuckets, toChartObject } from './rollups';

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

describe('roll-ups split by quality, with raw values and the profile version (docs/data-quality.md)', () => {
  const view = (values: Record<string, number>, extra: Partial<ReadingView> = {}): ReadingView => ({
    timestamp: T0,
    values,
    raw: values,
    reasons: {},
    calibration: {},
    ...extra,
  });

  it('keeps `m` as before (every quality, excluded values out) and splits only what is not all good', () => {
    const b = bucketBuilder();
    b.add(view({ pm2_5: 4, co2: 400 }));
    b.add(view({ pm2_5: 100 }, { reasons: { pm2_5: ['step_too_high'] } }));
    b.add(view({ pm2_5: 2 }, { reasons: { pm2_5: ['over_range'] } }));
    const bucket = b.bucket(7);
    expect(bucket.m).toEqual({ pm2_5: { n: 3, s: 106, lo: 2, hi: 100 }, co2: { n: 1, s: 400, lo: 400, hi: 400 } });
    expect(bucket.q).toEqual({
      pm2_5: {
        g: { n: 1, s: 4, lo: 4, hi: 4 },
        s: { n: 1, s: 100, lo: 100, hi: 100 },
        b: { n: 1, s: 2, lo: 2, hi: 2 },
      },
    });
    expect(bucket.r).toBeUndefined();
    expect(bucket.pv).toBe(7);
  });

  it('keeps the raw values beside the corrected ones where a calibration corrected some, and the newest version', () => {
    const b = bucketBuilder();
    b.add(view({ pm2_5: 8 }, { raw: { pm2_5: 4 }, calibration: { pm2_5: 2 } }));
    b.add(view({ pm2_5: 3 }, { raw: { pm2_5: 3 } }));
    const bucket = b.bucket(0);
    expect(bucket).toEqual({
      m: { pm2_5: { n: 2, s: 11, lo: 3, hi: 8 } },
      r: { pm2_5: { n: 2, s: 7, lo: 3, hi: 4 } },
      cal: { pm2_5: 2 },
    });
  });

  it('combines hours into a day class by class, raw where an hour had none being its corrected values', () => {
    const flagged = {
      m: { t: { n: 2, s: 10, lo: 4, hi: 6 } },
      q: { t: { g: { n: 1, s: 4, lo: 4, hi: 4 }, s: { n: 1, s: 6, lo: 6, hi: 6 } } },
      pv: 5,
    };
    const calibrated = {
      m: { t: { n: 1, s: 20, lo: 20, hi: 20 } },
      r: { t: { n: 1, s: 10, lo: 10, hi: 10 } },
      cal: { t: 1 },
      pv: 3,
    };
    const day = combineBuckets([flagged, calibrated]);
    expect(day.m.t).toEqual({ n: 3, s: 30, lo: 4, hi: 20 });
    expect(day.q?.t).toEqual({ g: { n: 2, s: 24, lo: 4, hi: 20 }, s: { n: 1, s: 6, lo: 6, hi: 6 } });
    expect(day.r?.t).toEqual({ n: 3, s: 20, lo: 4, hi: 10 });
    expect(day.rq?.t).toEqual({ g: { n: 2, s: 14, lo: 4, hi: 10 }, s: { n: 1, s: 6, lo: 6, hi: 6 } });
    expect(day.cal).toEqual({ t: 1 });
    // The day is only as fresh as its oldest hour.
    expect(day.pv).toBe(3);
  });

  it('writes the split, raw and calibration columns only for a measurement that has them, for every bucket', () => {
    const object = toChartObject('d', 'hour', '2025-01', [
      { ts: T0, m: { pm2_5: { n: 1, s: 4, lo: 4, hi: 4 } }, pv: 2 },
      {
        ts: T0 + HOUR_MS,
        m: { pm2_5: { n: 2, s: 8, lo: 2, hi: 6 } },
        q: { pm2_5: { g: { n: 1, s: 2, lo: 2, hi: 2 }, b: { n: 1, s: 6, lo: 6, hi: 6 } } },
      },
    ]);
    expect(object.pv).toEqual([2, 0]);
    expect(object.m.pm2_5!.q).toEqual({
      g: { min: [4, 2], max: [4, 2], mean: [4, 2], count: [1, 1] },
      s: { min: [null, null], max: [null, null], mean: [null, null], count: [null, null] },
      b: { min: [null, 6], max: [null, 6], mean: [null, 6], count: [null, 1] },
    });
    expect(object.m.pm2_5!.raw).toBeUndefined();
  });
});
