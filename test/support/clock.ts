import { DAY_MS, dayStart, HOUR_MS, hourStart } from '../../shared/sensor-data/chart-files';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The start of the next UTC hour after `now`. */
export const nextHourStart = (now = Date.now()): number => hourStart(now) + HOUR_MS;

/** The start of the next UTC month after `now`. */
export const nextMonthStart = (now = Date.now()): number => {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
};

/**
 * For a test of a count kept per clock period (a limit that resets on the hour or the month) against the running
 * stack, whose clock a test cannot set: waits, when the period ends within `marginMs`, until the next one has begun,
 * so all of the test's requests fall in one period. At most `marginMs` of waiting, and only near a period's end.
 */
export const wellInsidePeriod = async (periodEnd: (now: number) => number, marginMs: number): Promise<void> => {
  const left = periodEnd(Date.now()) - Date.now();
  if (left < marginMs) await sleep(left + 250);
};

/** The start of the next UTC day after `now`. */
export const nextDayStart = (now = Date.now()): number => dayStart(now) + DAY_MS;

/**
 * For a test that reads back what is kept per UTC day ("today's" counts, the day's readings partition) of readings
 * from the minutes before: waits, near midnight, until at least `marginMs` of the day have passed and at least as
 * much is left.
 */
export const wellInsideDay = async (marginMs: number): Promise<void> => {
  const sinceStart = Date.now() % DAY_MS;
  if (sinceStart < marginMs) await sleep(marginMs - sinceStart + 250);
  await wellInsidePeriod(nextDayStart, marginMs);
};
