import { Reading, type ReadingRejection } from '../../../shared/contracts/data-ingress';
import { ownValue } from '../../../shared/objects/own-value';
import { EARLIEST_READING_MS, MAX_CLOCK_SKEW_MS, MEASUREMENTS } from '../../../shared/sensor-data/measurements';
import { numberProblem } from '../../../shared/text/storable';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';

/** A time as ISO-8601, or as its number when it lies beyond the dates JavaScript can name (±8.64e15 ms). */
const timeText = (time: number) => (Math.abs(time) <= 8.64e15 ? new Date(time).toISOString() : `${time} ms`);

const describePath = (path: readonly PropertyKey[]) => (path.length ? `${path.map(String).join('.')}: ` : '');

/** One reading checked alone: stored as it is, or refused with a reason the device can act on. */
export const checkReading = (
  raw: unknown,
  index: number,
  now: number,
): { reading: StoredReading } | { rejection: ReadingRejection } => {
  const parsed = Reading.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A bad measurement name: its own rule says more than the record's "Invalid key".
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    return { rejection: { index, reason: 'malformed', message: `${describePath(issue.path)}${message}` } };
  }
  const { timestamp, values } = parsed.data;
  const time = typeof timestamp === 'number' ? timestamp : Date.parse(timestamp);
  if (time < EARLIEST_READING_MS) {
    // Epoch seconds are the usual mistake: 1.7e9 reads as January 1970.
    const hint = typeof timestamp === 'number' && time * 1000 >= EARLIEST_READING_MS ? ' (seconds instead of ms?)' : '';
    return {
      rejection: {
        index,
        reason: 'too-old',
        message: `timestamp ${timeText(time)} is before ${new Date(EARLIEST_READING_MS).toISOString()}${hint}`,
      },
    };
  }
  if (time > now + MAX_CLOCK_SKEW_MS) {
    return {
      rejection: {
        index,
        reason: 'future',
        message: `timestamp ${timeText(time)} is more than ${MAX_CLOCK_SKEW_MS / 60_000} minutes ahead of the server clock (${new Date(now).toISOString()})`,
      },
    };
  }
  for (const [name, value] of Object.entries(values)) {
    const unstorable = numberProblem(value);
    if (unstorable) {
      return { rejection: { index, reason: 'out-of-range', message: `${name} ${value}: ${unstorable}` } };
    }
    const info = ownValue(MEASUREMENTS, name);
    if (info && (value < info.min || value > info.max)) {
      return {
        rejection: {
          index,
          reason: 'out-of-range',
          message: `${name} ${value} is outside ${info.min} to ${info.max} ${info.unit}`,
        },
      };
    }
  }
  return { reading: { timestamp: time, values } };
};

/** Splits a batch into the readings to store and the refusals to answer and count. */
export const checkReadings = (raw: readonly unknown[], now: number) => {
  const accepted: StoredReading[] = [];
  const rejected: ReadingRejection[] = [];
  raw.forEach((item, index) => {
    const result = checkReading(item, index, now);
    if ('reading' in result) accepted.push(result.reading);
    else rejected.push(result.rejection);
  });
  return { accepted, rejected };
};
