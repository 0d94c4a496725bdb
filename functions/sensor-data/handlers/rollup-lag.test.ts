import type { SQSRecord } from 'aws-lambda';
import { countRollupLag } from './rollup-lag';

const recordSentAt = (SentTimestamp: string | undefined) => ({ attributes: { SentTimestamp } }) as unknown as SQSRecord;

describe('the roll-up lag', () => {
  const counted: [string, number][] = [];
  const counters = { count: () => undefined, seconds: (name: string, value: number) => counted.push([name, value]) };

  beforeEach(() => {
    counted.length = 0;
  });

  it("counts the seconds since SQS took the message, never below zero, and nothing when SQS's time is missing", () => {
    countRollupLag(recordSentAt('1764000000000'), undefined, 1764000012500, counters);
    countRollupLag(recordSentAt('1764000000000'), undefined, 1763999999000, counters);
    countRollupLag(recordSentAt(undefined), undefined, 1764000012500, counters);
    countRollupLag(recordSentAt('not a time'), undefined, 1764000012500, counters);
    expect(counted).toEqual([
      ['RollupLagSeconds', 12.5],
      ['RollupLagSeconds', 0],
    ]);
  });

  it('a coalesced roll-up counts from when it was due, not from when it was sent', () => {
    countRollupLag(recordSentAt('1764000000000'), 1764003600000, 1764003602000, counters);
    expect(counted).toEqual([['RollupLagSeconds', 2]]);
  });
});
