import fc from 'fast-check';
import { flagReadings, type QualityState } from './quality-flags';
import type { StoredReading } from './readings-store';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 4, 12, 8, 0, 30);

const series = (values: readonly number[], name = 'pm2_5', every = MINUTE, start = T0): StoredReading[] =>
  values.map((value, i) => ({ timestamp: start + i * every, values: { [name]: value } }));

/** The flags of each reading, by its index in time order, in one batch. */
const flagsOf = (readings: readonly StoredReading[], state?: QualityState) =>
  flagReadings(readings, state).readings.map((r) => r.flags?.pm2_5 ?? []);

/** The same readings sent in batches, the device record's state carried from one to the next. */
const inBatches = (readings: readonly StoredReading[], sizes: (i: number) => number) => {
  let state: QualityState | undefined;
  const out: StoredReading[] = [];
  for (let i = 0; i < readings.length; ) {
    const size = Math.max(1, sizes(i));
    const result = flagReadings(readings.slice(i, i + size), state);
    out.push(...result.readings);
    state = result.state ?? state;
    i += size;
  }
  return out;
};

/** A PM2.5 series of ordinary values with spikes (700) and long flat runs (20) among them. */
const anySeries = fc.array(fc.oneof(fc.integer({ min: 5, max: 40 }), fc.constant(700), fc.constant(20)), {
  minLength: 2,
  maxLength: 200,
});
/** Batch sizes, taken in turn. */
const anyBatchSizes = fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 });

describe('quality flags at ingest', () => {
  it('flags values outside the sensor’s limits as bad, per measurement kind', () => {
    const [reading] = flagReadings([
      { timestamp: T0, values: { pm2_5: 9_999, co2: 300, humidity: 40, lux: -5 } },
    ]).readings;
    expect(reading!.flags).toEqual({ pm2_5: ['over_range'], co2: ['under_range'] });
  });

  it('flags a spike against the recent values, and not the value after it', () => {
    expect(flagsOf(series([10, 11, 12, 400, 12, 13]))).toEqual([[], [], [], ['step_too_high'], [], []]);
    // An impossible spike is both out of range and a step; the next value is measured against the one before it.
    expect(flagsOf(series([10, 11, 9_999, 11]))).toEqual([[], [], ['over_range', 'step_too_high'], []]);
  });

  it('takes a new level after one suspect step: two values in a row there mean the air changed', () => {
    expect(flagsOf(series([10, 11, 300, 305, 310, 308]))).toEqual([[], [], ['step_too_high'], [], [], []]);
  });

  it('flags the same value repeated for longer than the kind allows (two hours of PM2.5) as stuck', () => {
    const stuck = Array.from({ length: 150 }, () => 7.5);
    const flags = flagsOf(series([5, ...stuck, 8]));
    // The run begins at the second value; from two hours in, every repeat is stuck; the change ends it.
    expect(flags.findIndex((f) => f.includes('stuck_value'))).toBe(121);
    expect(flags.slice(121, 151).every((f) => f.includes('stuck_value'))).toBe(true);
    expect(flags[151]).toEqual([]);
    // A battery may sit at 100 %: no stuck check for it.
    const battery = flagReadings(
      series(
        Array.from({ length: 200 }, () => 100),
        'battery',
      ),
    ).readings;
    expect(battery.some((r) => r.flags)).toBe(false);
  });

  it('flags the first value after a silence four times the usual spacing (at least 20 minutes)', () => {
    const before = series([10, 11, 10, 12, 11]);
    const after = series([11, 12], 'pm2_5', MINUTE, T0 + 5 * MINUTE + 45 * MINUTE);
    expect(flagsOf([...before, ...after])).toEqual([[], [], [], [], [], ['gap_before'], []]);
    // Hourly reports: a two-hour gap is no silence, a five-hour one is.
    const hourly = series([10, 11, 12, 11, 10, 12], 'pm2_5', 60 * MINUTE);
    const late = series([11, 10], 'pm2_5', 60 * MINUTE, T0 + 7 * 60 * MINUTE);
    const later = series([12], 'pm2_5', 60 * MINUTE, T0 + 13 * 60 * MINUTE);
    expect(flagsOf([...hourly, ...late, ...later]).map((f) => f.join())).toEqual([...Array(8).fill(''), 'gap_before']);
  });

  it('checks measurements outside the catalogue for gaps only', () => {
    const odd = flagReadings([
      ...series([1, 1e6, 1, 1, 1], 'soil'),
      ...series([5], 'soil', MINUTE, T0 + 2 * 3_600_000),
    ]).readings;
    expect(odd.map((r) => r.flags?.soil ?? [])).toEqual([[], [], [], [], [], ['gap_before']]);
  });

  it('answers the same flags for a batch in any order, and whatever the batches (the state carries the recent values)', () => {
    const values = [10, 12, 11, 600, 12, 13, 14, 13, 250, 255, 254, 12, 11];
    const readings = series(values);
    const expected = flagsOf(readings);
    expect(expected.filter((f) => f.length)).toHaveLength(3);
    const shuffled = [...readings].reverse();
    expect(flagsOf(shuffled)).toEqual(expected);
    expect(inBatches(readings, () => 1).map((r) => r.flags?.pm2_5 ?? [])).toEqual(expected);
    expect(inBatches(readings, (i) => 1 + (i % 3)).map((r) => r.flags?.pm2_5 ?? [])).toEqual(expected);
  });

  it('checks a batch that arrives after later ones against what lies before it in time', () => {
    const early = series([10, 11, 500]);
    const later = series([12, 11, 10], 'pm2_5', MINUTE, T0 + 3 * MINUTE);
    const first = flagReadings(later);
    const second = flagReadings(early, first.state);
    expect(second.readings.map((r) => r.flags?.pm2_5 ?? [])).toEqual([[], [], ['step_too_high']]);
  });

  it('keeps the recent values of each measurement on the device record, a few, for the next batch', () => {
    const { state } = flagReadings(series([1, 2, 3, 4, 5, 6]));
    expect(state?.pm2_5?.p.map(([t, v]) => [t - T0, v])).toEqual([
      [2 * MINUTE, 3],
      [3 * MINUTE, 4],
      [4 * MINUTE, 5],
      [5 * MINUTE, 6],
    ]);
    expect(state?.pm2_5?.r).toEqual([6, T0 + 5 * MINUTE]);
    // A batch the record already holds changes nothing: no write.
    expect(flagReadings(series([5, 6], 'pm2_5', MINUTE, T0 + 4 * MINUTE), state).state).toBeUndefined();
  });

  it('answers a batch sent again, its values already kept (its readings write failed), the flags it had', () => {
    // A stuck run begun long before the values the record keeps: the resend still knows where it began.
    const readings = series([5, ...Array.from({ length: 150 }, () => 7.5)]);
    const before = flagReadings(readings.slice(0, 140)).state;
    const batch = readings.slice(140, 145);
    const first = flagReadings(batch, before);
    expect(first.readings.every((r) => r.flags?.pm2_5?.includes('stuck_value'))).toBe(true);
    expect(flagReadings(batch, first.state).readings).toEqual(first.readings);
  });

  it('answers any batch sent again with the state it left the flags it had (property)', () => {
    fc.assert(
      fc.property(anySeries, anyBatchSizes, (values, sizes) => {
        const readings = series(values);
        let state: QualityState | undefined;
        for (let i = 0, b = 0; i < readings.length; b++) {
          const batch = readings.slice(i, i + sizes[b % sizes.length]!);
          const first = flagReadings(batch, state);
          state = first.state ?? state;
          expect(flagReadings(batch, state).readings).toEqual(first.readings);
          i += batch.length;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('flags in one batch and in batches of any size alike, on any series (property)', () => {
    fc.assert(
      fc.property(anySeries, anyBatchSizes, (values, sizes) => {
        const readings = series(values);
        const whole = flagsOf(readings);
        const batched = inBatches(readings, (i) => sizes[i % sizes.length]!).map((r) => r.flags?.pm2_5 ?? []);
        expect(batched).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});
