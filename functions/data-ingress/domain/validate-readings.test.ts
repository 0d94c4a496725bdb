import {
  EARLIEST_READING_MS,
  MAX_CLOCK_SKEW_MS,
  MAX_MEASUREMENTS_PER_READING,
} from '../../../shared/sensor-data/measurements';
import { checkReading, checkReadings } from './validate-readings';

const NOW = Date.UTC(2025, 5, 1, 12);

const rejection = (raw: unknown) => {
  const result = checkReading(raw, 7, NOW);
  if (!('rejection' in result)) throw new Error(`expected a rejection, got ${JSON.stringify(result)}`);
  expect(result.rejection.index).toBe(7);
  return result.rejection;
};

describe('checkReading', () => {
  it('accepts epoch ms and ISO-8601 with a zone, storing ms', () => {
    expect(checkReading({ timestamp: NOW - 1, values: { pm2_5: 3 } }, 0, NOW)).toEqual({
      reading: { timestamp: NOW - 1, values: { pm2_5: 3 } },
    });
    expect(checkReading({ timestamp: '2025-06-01T13:30:00+02:00', values: { co2: 500 } }, 0, NOW)).toEqual({
      reading: { timestamp: Date.UTC(2025, 5, 1, 11, 30), values: { co2: 500 } },
    });
  });

  it('accepts names outside the catalogue with any finite value', () => {
    expect('reading' in checkReading({ timestamp: NOW, values: { soil_moisture: -12345.5 } }, 0, NOW)).toBe(true);
  });

  it.each([
    ['not an object', 'hello', /expected object|object/i],
    ['no timestamp', { values: { pm2_5: 1 } }, /timestamp/],
    ['a timestamp without a zone', { timestamp: '2025-06-01T12:00:00', values: { pm2_5: 1 } }, /timestamp/],
    ['an impossible date', { timestamp: '2025-02-30T12:00:00Z', values: { pm2_5: 1 } }, /not a real date and time/],
    ['fractional ms', { timestamp: NOW + 0.5, values: { pm2_5: 1 } }, /whole milliseconds/],
    ['no values', { timestamp: NOW, values: {} }, /at least one measurement/],
    ['a text value', { timestamp: NOW, values: { pm2_5: '3' } }, /values\.pm2_5: each value must be a number/],
    ['a bad name', { timestamp: NOW, values: { 'PM 2.5': 3 } }, /Measurement names/],
    [
      'too many measurements',
      {
        timestamp: NOW,
        values: Object.fromEntries(Array.from({ length: MAX_MEASUREMENTS_PER_READING + 1 }, (_, i) => [`m${i}`, i])),
      },
      /at most 32 measurements/,
    ],
  ])('refuses %s as malformed', (_label, raw, message) => {
    const r = rejection(raw);
    expect(r.reason).toBe('malformed');
    expect(r.message).toMatch(message);
  });

  it('refuses times and values no store keeps exactly, one reading at a time, without throwing', () => {
    expect(rejection({ timestamp: 1e308, values: { co2: 1 } })).toMatchObject({
      reason: 'malformed',
      message: 'timestamp: timestamp must be whole milliseconds (at most 2^53 - 1)',
    });
    expect(rejection({ timestamp: 2 ** 53, values: { co2: 1 } }).reason).toBe('malformed');
    // The largest safe integer is past the last date JavaScript can name: a future time, named by its number.
    expect(rejection({ timestamp: 2 ** 53 - 1, values: { co2: 1 } })).toMatchObject({
      reason: 'future',
      message: expect.stringContaining('9007199254740991 ms'),
    });
    expect(rejection({ timestamp: -(2 ** 53 - 1), values: { co2: 1 } }).reason).toBe('too-old');
    expect(rejection({ timestamp: NOW, values: { soil: 1e200 } })).toMatchObject({
      reason: 'out-of-range',
      message: expect.stringContaining('soil 1e+200: numbers must be whole numbers between'),
    });
    expect(rejection({ timestamp: NOW, values: { soil: 1e-200 } }).reason).toBe('out-of-range');
  });

  it('refuses readings beyond the allowed clock skew as future, but not within it', () => {
    expect('reading' in checkReading({ timestamp: NOW + MAX_CLOCK_SKEW_MS, values: { co2: 1 } }, 0, NOW)).toBe(true);
    const r = rejection({ timestamp: NOW + MAX_CLOCK_SKEW_MS + 1, values: { co2: 1 } });
    expect(r.reason).toBe('future');
    expect(r.message).toMatch(/ahead of the server clock/);
  });

  it('refuses readings before the earliest time as too old, hinting at seconds sent as ms', () => {
    expect(rejection({ timestamp: EARLIEST_READING_MS - 1, values: { co2: 1 } }).reason).toBe('too-old');
    const seconds = rejection({ timestamp: Math.floor(NOW / 1000), values: { co2: 1 } });
    expect(seconds).toMatchObject({ reason: 'too-old' });
    expect(seconds.message).toMatch(/seconds instead of ms/);
    expect('reading' in checkReading({ timestamp: EARLIEST_READING_MS, values: { co2: 1 } }, 0, NOW)).toBe(true);
  });

  it('refuses catalogue values outside their physical range as out-of-range, bounds included as valid', () => {
    expect('reading' in checkReading({ timestamp: NOW, values: { humidity: 100, temperature: -90 } }, 0, NOW)).toBe(
      true,
    );
    const r = rejection({ timestamp: NOW, values: { humidity: 100.5 } });
    expect(r).toMatchObject({ reason: 'out-of-range' });
    expect(r.message).toMatch(/humidity 100.5 is outside 0 to 100 %/);
    expect(rejection({ timestamp: NOW, values: { co2: 400, pm2_5: -1 } }).reason).toBe('out-of-range');
  });
});

describe('checkReadings', () => {
  it('keeps the good readings of a batch and names each bad one by its index', () => {
    const { accepted, rejected } = checkReadings(
      [
        { timestamp: NOW, values: { co2: 400 } },
        { timestamp: NOW + 3_600_000, values: { co2: 400 } },
        null,
        { timestamp: NOW - 1, values: { co2: 401 } },
      ],
      NOW,
    );
    expect(accepted.map((r) => r.timestamp)).toEqual([NOW, NOW - 1]);
    expect(rejected.map((r) => [r.index, r.reason])).toEqual([
      [1, 'future'],
      [2, 'malformed'],
    ]);
  });
});
