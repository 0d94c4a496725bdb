import { answeredScan, answerReading, appliedOver, EMPTY_PROFILE, profileOf, viewReading } from './quality-profile';
import type { StoredReading } from './readings-store';

const T = Date.UTC(2026, 4, 12, 9);
const profile = profileOf({
  version: 3,
  cal: {
    pm2_5: [
      { v: 1, id: 'cal_a', f: { kind: 'linear', a: 2, b: 0 }, from: 0 },
      { v: 2, id: 'cal_b', f: { kind: 'linear', a: 0.5, b: 1 }, from: T, to: T + 1_000 },
    ],
  },
  exc: [{ id: 'exc_1', from: T + 5_000, to: T + 6_000, m: ['temperature'] }],
});

const reading = (offset: number, values: Record<string, number>, flags?: StoredReading['flags']): StoredReading => ({
  timestamp: T + offset,
  values,
  ...(flags ? { flags } : {}),
});

describe('a reading seen through its device’s profile', () => {
  it('corrects with the version in force at its time, keeps the raw value beside it, and says which version', () => {
    expect(viewReading(reading(-1, { pm2_5: 10 }), profile)).toMatchObject({
      values: { pm2_5: 20 },
      raw: { pm2_5: 10 },
      calibration: { pm2_5: 1 },
    });
    expect(viewReading(reading(500, { pm2_5: 10, humidity: 40 }), profile)).toMatchObject({
      values: { pm2_5: 6, humidity: 40 },
      raw: { pm2_5: 10, humidity: 40 },
      calibration: { pm2_5: 2 },
    });
  });

  it('after an end (formula none) answers the value as sent and names no version; before it, the version holds', () => {
    const ended = profileOf({
      version: 2,
      cal: {
        pm2_5: [
          { v: 1, id: 'cal_a', f: { kind: 'linear', a: 2, b: 0 }, from: 0 },
          { v: 2, id: 'cal_e', f: { kind: 'none' }, from: T },
        ],
      },
    });
    expect(viewReading(reading(-1, { pm2_5: 10 }), ended)).toMatchObject({
      values: { pm2_5: 20 },
      calibration: { pm2_5: 1 },
    });
    const after = answerReading(reading(0, { pm2_5: 10 }), ended, { quality: 'all', values: 'both' })!;
    expect(after.values).toEqual({ pm2_5: 10 });
    expect(after.raw).toEqual({ pm2_5: 10 });
    expect(after.calibration).toBeUndefined();
  });

  it('takes excluded values out and says why; the stored reading is untouched', () => {
    const stored = reading(5_500, { pm2_5: 10, temperature: 21 }, { pm2_5: ['step_too_high'] });
    const view = viewReading(stored, profile);
    expect(view.raw).toEqual({ pm2_5: 10 });
    expect(view.reasons).toEqual({ pm2_5: ['step_too_high'], temperature: ['excluded'] });
    expect(stored).toEqual(reading(5_500, { pm2_5: 10, temperature: 21 }, { pm2_5: ['step_too_high'] }));
  });

  it('answers by quality and values as the readers do', () => {
    const stored = reading(
      5_500,
      { pm2_5: 10, temperature: 21, co2: 200 },
      { co2: ['under_range'], pm2_5: ['gap_before'] },
    );
    expect(answerReading(stored, profile, { quality: 'all', values: 'both' })).toEqual({
      timestamp: T + 5_500,
      values: { pm2_5: 20, co2: 200 },
      raw: { pm2_5: 10, co2: 200 },
      quality: { pm2_5: 'suspect', co2: 'bad', temperature: 'bad' },
      reasons: { pm2_5: ['gap_before'], co2: ['under_range'], temperature: ['excluded'] },
      calibration: { pm2_5: 1 },
    });
    expect(answerReading(stored, profile, { quality: 'no-bad', values: 'raw' })).toEqual({
      timestamp: T + 5_500,
      values: { pm2_5: 10 },
      quality: { pm2_5: 'suspect' },
      reasons: { pm2_5: ['gap_before'] },
    });
    // Nothing good left: the reading is not answered at all.
    expect(answerReading(stored, profile, { quality: 'good', values: 'corrected' })).toBeUndefined();
    expect(answerReading(reading(0, { humidity: 3 }), EMPTY_PROFILE, { quality: 'good', values: 'corrected' })).toEqual(
      {
        timestamp: T,
        values: { humidity: 3 },
        quality: { humidity: 'good' },
      },
    );
  });

  it('scans as readers answer, and an empty chunk still tells how far the scan came', async () => {
    const scan = async function* () {
      yield [reading(5_100, { temperature: 1 })];
      yield [reading(7_000, { temperature: 2 })];
    };
    const chunks = [];
    for await (const chunk of answeredScan(scan, profile, { quality: 'all', values: 'corrected' })('d', {
      from: 0,
      to: T + 10_000,
    })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([
      [{ timestamp: T + 5_100, values: {} }],
      [{ timestamp: T + 7_000, values: { temperature: 2 }, quality: { temperature: 'good' } }],
    ]);
  });

  it('names the versions and exclusions that hold over a dataset’s parts', () => {
    expect(appliedOver(profile, [{ from: T + 2_000, to: T + 4_000 }])).toEqual({
      calibrations: [
        { measurement: 'pm2_5', version: 1, id: 'cal_a', formula: { kind: 'linear', a: 2, b: 0 }, effectiveFrom: 0 },
      ],
      exclusions: [],
    });
    expect(appliedOver(profile, [{ from: T, to: T + 5_000 }]).calibrations.map((c) => c.version)).toEqual([1, 2]);
    expect(appliedOver(profile, [{ from: T, to: T + 5_000 }]).exclusions).toEqual([
      { id: 'exc_1', from: T + 5_000, to: T + 6_000, measurements: ['temperature'] },
    ]);
  });
});
