import { bucketMsFor, createBuckets, periodFits, RESOLUTION_MS, resolutionFor, roundForChart } from './downsample';

const HOUR = RESOLUTION_MS.hour;
const DAY = RESOLUTION_MS.day;

describe('resolutionFor', () => {
  it('reads raw readings up to 2 days, hourly roll-ups up to 400 days, daily ones beyond', () => {
    expect(resolutionFor({ from: 0, to: 2 * DAY })).toBe('minute');
    expect(resolutionFor({ from: 0, to: 2 * DAY + 1 })).toBe('hour');
    expect(resolutionFor({ from: 0, to: 365 * DAY })).toBe('hour');
    expect(resolutionFor({ from: 0, to: 401 * DAY })).toBe('day');
  });
});

describe('bucketMsFor', () => {
  it('is a whole number of source periods, about the range over the width', () => {
    expect(bucketMsFor({ from: 0, to: 365 * DAY }, 800, 'hour')).toBe(11 * HOUR);
    expect(bucketMsFor({ from: 0, to: DAY }, 800, 'minute')).toBe(2 * 60_000);
    // Never finer than the source: ten hours on 800 pixels still buckets by the hour.
    expect(bucketMsFor({ from: 0, to: 10 * HOUR }, 800, 'hour')).toBe(HOUR);
  });
});

describe('createBuckets', () => {
  it('takes the min of minima, the max of maxima and the count-weighted mean; empty buckets are left out', () => {
    const buckets = createBuckets({ from: 0, to: 3 * HOUR - 1 }, HOUR);
    buckets.add(0, 'pm2_5', 1, 5, 2, 60);
    buckets.add(10 * 60_000, 'pm2_5', 0.5, 3, 5, 30);
    buckets.add(2 * HOUR, 'pm2_5', 7, 7, 7);
    const { t, series } = buckets.result();
    expect(t).toEqual([0, 2 * HOUR]);
    expect(series.pm2_5).toEqual({
      min: [0.5, 7],
      max: [5, 7],
      mean: [3, 7],
      gapMs: 6 * HOUR,
      suspect: [0, 0],
      bad: [0, 0],
    });
  });

  it("keeps a bucket any measurement holds, null in the others' columns, each with its own gap", () => {
    const buckets = createBuckets({ from: 0, to: 4 * HOUR - 1 }, HOUR);
    for (const hour of [0, 1, 2, 3]) buckets.add(hour * HOUR, 'pm2_5', 1, 1, 1);
    buckets.add(0, 'battery', 90, 90, 90);
    const { t, series } = buckets.result();
    expect(t).toEqual([0, HOUR, 2 * HOUR, 3 * HOUR]);
    expect(series.battery).toEqual({
      min: [90, null, null, null],
      max: [90, null, null, null],
      mean: [90, null, null, null],
      gapMs: null,
      suspect: [0, 0, 0, 0],
      bad: [0, 0, 0, 0],
    });
    expect(series.pm2_5!.gapMs).toBe(3 * HOUR);
  });

  it('ignores points outside the range, and answers every asked measurement, seen or not', () => {
    const buckets = createBuckets({ from: HOUR, to: 2 * HOUR - 1 }, HOUR);
    buckets.add(0, 'co2', 400, 400, 400);
    buckets.add(2 * HOUR, 'co2', 400, 400, 400);
    expect(buckets.result(['co2', 'voc'])).toEqual({
      t: [],
      series: {
        co2: { min: [], max: [], mean: [], gapMs: null, suspect: [], bad: [] },
        voc: { min: [], max: [], mean: [], gapMs: null, suspect: [], bad: [] },
      },
    });
  });

  it('counts suspect and bad readings per bucket, and keeps raw columns and calibration versions beside', () => {
    const buckets = createBuckets({ from: 0, to: 2 * HOUR - 1 }, HOUR, { raw: true });
    buckets.add(0, 'pm2_5', 10, 10, 10, 1, { raw: { min: 20, max: 20, mean: 20, count: 1 }, cal: 2 });
    buckets.add(60_000, 'pm2_5', 12, 12, 12, 1, { raw: { min: 24, max: 24, mean: 24, count: 1 }, cal: 1 });
    buckets.count(60_000, 'pm2_5', 1, 0);
    buckets.count(HOUR, 'pm2_5', 0, 2);
    buckets.add(HOUR, 'pm2_5', 5, 5, 5);
    const { series } = buckets.result();
    expect(series.pm2_5).toMatchObject({
      mean: [11, 5],
      raw: { min: [20, 5], max: [24, 5], mean: [22, 5] },
      suspect: [1, 0],
      bad: [0, 2],
      // The newest version used in the bucket; none in the second.
      calibration: [2, null],
    });
  });
});

describe('roundForChart', () => {
  it('keeps four significant digits', () => {
    expect(roundForChart(1013.256)).toBe(1013);
    expect(roundForChart(0.0012346)).toBe(0.001235);
    expect(roundForChart(-21.456)).toBe(-21.46);
    expect(roundForChart(0)).toBe(0);
  });
});

describe('periodFits', () => {
  const now = 100 * HOUR;
  it('shows a period only when it lies wholly inside a part', () => {
    const parts = [{ from: 10 * HOUR + 1, to: 20 * HOUR - 2 }];
    expect(periodFits(10 * HOUR, HOUR, parts, now)).toBe(false);
    expect(periodFits(11 * HOUR, HOUR, parts, now)).toBe(true);
    expect(periodFits(18 * HOUR, HOUR, parts, now)).toBe(true);
    expect(periodFits(19 * HOUR, HOUR, parts, now)).toBe(false);
  });

  it('lets the current period through when the part reaches now', () => {
    expect(periodFits(99 * HOUR, HOUR, [{ from: 0, to: now + 5 }], now)).toBe(true);
    expect(periodFits(99 * HOUR, HOUR, [{ from: 0, to: now - 5 }], now)).toBe(false);
  });
});
