import { HOUR_MS } from '../../../shared/sensor-data/chart-files';
import { EMPTY_PROFILE, profileOf, type QualityProfile, viewReading } from '../../_shared/sensor-data/quality-profile';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import { mergeChartObjects } from '../store/chart-data-store';
import { createBuckets } from './downsample';
import { bucketBuilder, toChartObject } from './rollups';
import { createSeriesPoints, type PointsRequest } from './series-points';

const H = Date.UTC(2026, 0, 10, 6);
const AT = Date.UTC(2026, 1, 20, 12);

/** Three hours of readings: a spike (suspect) in the first, an impossible value in the second, all good in the third. */
const READINGS: StoredReading[] = [
  { timestamp: H + 60_000, values: { pm2_5: 10 } },
  { timestamp: H + 120_000, values: { pm2_5: 400 }, flags: { pm2_5: ['step_too_high'] } },
  { timestamp: H + HOUR_MS + 60_000, values: { pm2_5: 20 } },
  { timestamp: H + HOUR_MS + 120_000, values: { pm2_5: 1_500 }, flags: { pm2_5: ['over_range', 'step_too_high'] } },
  { timestamp: H + 2 * HOUR_MS + 60_000, values: { pm2_5: 30 } },
];

const calibrated = profileOf({
  version: 4,
  cal: { pm2_5: [{ v: 1, id: 'cal_x', f: { kind: 'linear', a: 2, b: 0 }, from: 0 }] },
});

/** The hour objects as the worker would write them with `profile`. */
const objectsWith = (profile: QualityProfile) => {
  const items = [0, 1, 2].map((i) => {
    const b = bucketBuilder();
    for (const r of READINGS.filter((r) => Math.floor((r.timestamp - H) / HOUR_MS) === i))
      b.add(viewReading(r, profile));
    return { ts: H + i * HOUR_MS, ...b.bucket(profile.version) };
  });
  return toChartObject('d', 'hour', '2026-01', items);
};

const pointsOf = async (object: ReturnType<typeof objectsWith>, request: Partial<PointsRequest>) => {
  const points = createSeriesPoints({
    readings: { scan: async function* () {} },
    rollups: async (_d, resolution, from, to) => mergeChartObjects([object], resolution, from, to),
  });
  const buckets = createBuckets({ from: H, to: H + 3 * HOUR_MS - 1 }, HOUR_MS, { raw: request.values === 'both' });
  const outcome = await points(buckets, {
    deviceId: 'd',
    resolution: 'hour',
    parts: [{ from: H, to: AT }],
    wanted: undefined,
    at: AT,
    profile: EMPTY_PROFILE,
    quality: 'all',
    values: 'corrected',
    ...request,
  });
  return { ...buckets.result(), ...outcome };
};

describe('series points from roll-ups split by quality', () => {
  it('answers every value by default, with each bucket’s suspect and bad counts', async () => {
    const { series } = await pointsOf(objectsWith(EMPTY_PROFILE), {});
    expect(series.pm2_5).toMatchObject({ mean: [205, 760, 30], suspect: [1, 0, 0], bad: [0, 1, 0] });
  });

  it('keeps good values only, or all but the bad', async () => {
    const object = objectsWith(EMPTY_PROFILE);
    expect((await pointsOf(object, { quality: 'good' })).series.pm2_5!.mean).toEqual([10, 20, 30]);
    expect((await pointsOf(object, { quality: 'no-bad' })).series.pm2_5!.mean).toEqual([205, 20, 30]);
  });

  it('answers corrected values, raw ones, or both, with the calibration version', async () => {
    const object = objectsWith(calibrated);
    const corrected = await pointsOf(object, { quality: 'good', profile: calibrated });
    expect(corrected.series.pm2_5).toMatchObject({ mean: [20, 40, 60], calibration: [1, 1, 1] });
    const raw = await pointsOf(object, { quality: 'good', values: 'raw', profile: calibrated });
    expect(raw.series.pm2_5!.mean).toEqual([10, 20, 30]);
    expect(raw.series.pm2_5!.calibration).toBeUndefined();
    const both = await pointsOf(object, { quality: 'no-bad', values: 'both', profile: calibrated });
    expect(both.series.pm2_5).toMatchObject({ mean: [410, 40, 60], raw: { mean: [205, 20, 30] } });
  });

  it('leaves out a bucket an exclusion touches until it is reprocessed, and only flags one a calibration touches', async () => {
    const object = objectsWith(EMPTY_PROFILE);
    const excluding = profileOf({
      version: 5,
      exc: [{ id: 'exc_1', from: H + HOUR_MS + 90_000, to: H + HOUR_MS + 150_000 }],
      pending: [{ v: 5, from: H + HOUR_MS + 90_000, to: H + HOUR_MS + 150_000, kind: 'exclusion' }],
    });
    const hidden = await pointsOf(object, { profile: excluding });
    expect(hidden.t).toEqual([H, H + 2 * HOUR_MS]);
    expect(hidden.reprocessing).toBe(true);
    // Once the worker computed that hour again with version 5, it shows, without the excluded value.
    const redone = objectsWith(excluding);
    const shown = await pointsOf(redone, { profile: excluding });
    expect(shown.series.pm2_5).toMatchObject({ mean: [205, 20, 30], bad: [0, 0, 0] });
    expect(shown.reprocessing).toBe(false);

    const recalibrating = profileOf({
      ...calibrated,
      version: 6,
      cal: { pm2_5: [{ v: 1, id: 'cal_x', f: { kind: 'linear', a: 2, b: 0 }, from: 0 }] },
      pending: [{ v: 6, from: H, to: AT, kind: 'calibration' }],
    });
    const stale = await pointsOf(object, { profile: recalibrating });
    expect(stale.t).toHaveLength(3);
    expect(stale.reprocessing).toBe(true);
  });
});
