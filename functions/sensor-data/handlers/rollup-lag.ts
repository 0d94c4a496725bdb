import type { SQSRecord } from 'aws-lambda';
import { APP_METRICS } from '../../../shared/operations/metrics';
import type { Counters } from '../../_shared/metrics';

/**
 * Seconds from the roll-up's message being sent (the readings stored) to its charts being written: what a person
 * waits before the 7-day chart shows a new reading. SentTimestamp is SQS's own, in epoch milliseconds.
 */
export const countRollupLag = (record: SQSRecord, now: number, counters: Counters): void => {
  const sent = Number(record.attributes?.SentTimestamp);
  if (Number.isFinite(sent) && sent > 0) counters.seconds(APP_METRICS.rollupLag, Math.max(0, now - sent) / 1000);
};
