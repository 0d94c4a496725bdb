import { TooManyRequests } from './errors';
import { type HourlyCount, takeHourlyUse } from './hourly-limit';

const HOUR = 3_600_000;
// 2026-11-28 14:20:15 UTC: well inside an hour.
const AT = Date.UTC(2026, 10, 28, 14, 20, 15);
const HOUR_START = Date.UTC(2026, 10, 28, 14);

/** A counter in memory, as the table keeps it: one count per subject and hour. */
const memoryCount = () => {
  const counts = new Map<string, number>();
  const count: HourlyCount = async (subject, hourStart, limit) => {
    const key = `${subject}#${hourStart}`;
    const used = counts.get(key) ?? 0;
    if (used >= limit) return false;
    counts.set(key, used + 1);
    return true;
  };
  return Object.assign(count, { counts });
};

const tooMany = (limit: number, nextAt: number) => `At most ${limit} an hour; try again at ${nextAt}`;

describe('takeHourlyUse', () => {
  it('counts the use in the clock hour it falls in', async () => {
    const count = memoryCount();
    await takeHourlyUse(count, { subject: 'person:ann', limit: 2, at: AT }, tooMany);
    expect([...count.counts]).toEqual([[`person:ann#${HOUR_START}`, 1]]);
  });

  it('refuses the use past the limit with 429, the message, and Retry-After until the next hour', async () => {
    const count = memoryCount();
    await takeHourlyUse(count, { subject: 'person:ann', limit: 1, at: AT }, tooMany);
    const error = await takeHourlyUse(count, { subject: 'person:ann', limit: 1, at: AT }, tooMany).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TooManyRequests);
    expect((error as TooManyRequests).message).toBe(`At most 1 an hour; try again at ${HOUR_START + HOUR}`);
    expect((error as TooManyRequests).headers).toEqual({ 'retry-after': String((HOUR_START + HOUR - AT) / 1000) });
  });

  it('starts afresh in the next hour, and counts each subject on its own', async () => {
    const count = memoryCount();
    await takeHourlyUse(count, { subject: 'person:ann', limit: 1, at: AT }, tooMany);
    await expect(takeHourlyUse(count, { subject: 'person:bob', limit: 1, at: AT }, tooMany)).resolves.toBeUndefined();
    await expect(
      takeHourlyUse(count, { subject: 'person:ann', limit: 1, at: HOUR_START + HOUR }, tooMany),
    ).resolves.toBeUndefined();
  });

  it('never asks a client to wait less than a second', async () => {
    const error = await takeHourlyUse(
      async () => false,
      { subject: 's', limit: 1, at: HOUR_START + HOUR - 1 },
      tooMany,
    ).catch((e: unknown) => e);
    expect((error as TooManyRequests).headers).toEqual({ 'retry-after': '1' });
  });
});
