import type { SQSRecord } from 'aws-lambda';
import { APP_METRICS } from '../../../shared/operations/metrics';
import type { Counters } from '../../_shared/metrics';

/** When SQS took the message (its own SentTimestamp, epoch milliseconds), if the record says. */
export const sentTimeOf = (record: SQSRecord): number | undefined => {
  const sent = Number(record.attributes?.SentTimestamp);
  return Number.isFinite(sent) && sent > 0 ? sent : undefined;
};

/**
 * Seconds from the roll-up being due to its charts being written: what a person waits, beyond the coalescing that
 * the environment chose, before the 7-day chart shows a new reading. Due is when the message was sent (the readings
 * stored), or its `notBefore` when ingest coalesced it.
 */
export const countRollupLag = (record: SQSRecord, notBefore: number | undefined, now: number, counters: Counters) => {
  const sent = sentTimeOf(record);
  if (sent === undefined) return;
  const due = Math.max(sent, notBefore ?? 0);
  counters.seconds(APP_METRICS.rollupLag, Math.max(0, now - due) / 1000);
};
