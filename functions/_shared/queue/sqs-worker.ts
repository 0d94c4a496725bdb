import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { log, logger } from '../logger';
import { lambdaTelemetry } from '../telemetry';
import { CORRELATION_ID_ATTRIBUTE } from './queue-sender';

export interface SqsWorkerOptions<D> {
  /** Builds the worker's dependencies once per cold start. */
  deps: () => D;
}

/**
 * The chain for queue workers, written once. Each record's body is parsed and checked against `message`;
 * records are processed one by one and only the ones that fail are reported back (partial batch responses),
 * so the queue retries exactly those and moves a record that keeps failing to the dead-letter queue.
 * A body that can never be processed (not JSON, not the schema) also fails: the dead-letter queue keeps it
 * for someone to look at, rather than it being dropped. Work must be idempotent: a record may come twice.
 * On a FIFO queue, a failed record also fails the records after it in its message group, unworked: the group
 * is retried from the failure on, in order (what AWS asks of partial batch responses on FIFO queues).
 */
export const sqsWorker = <S extends z.ZodType, D>(
  name: string,
  message: S,
  work: (message: z.infer<S>, deps: D, record: SQSRecord) => Promise<unknown>,
  options: SqsWorkerOptions<D>,
) => {
  let deps: D | undefined;
  return middy<SQSEvent, SQSBatchResponse, Error, Context>()
    .use(lambdaTelemetry())
    .handler(async (event) => {
      deps ??= options.deps();
      const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
      const failedGroups = new Set<string>();
      for (const record of event.Records) {
        const group = record.attributes?.MessageGroupId;
        if (group !== undefined && failedGroups.has(group)) {
          batchItemFailures.push({ itemIdentifier: record.messageId });
          continue;
        }
        // Each record's lines carry the id of the request (or message) that sent it, else the message's own id.
        logger.setCorrelationId(record.messageAttributes?.[CORRELATION_ID_ATTRIBUTE]?.stringValue ?? record.messageId);
        try {
          let body: unknown;
          try {
            body = JSON.parse(record.body);
          } catch {
            throw new Error('Message body is not JSON');
          }
          const parsed = message.safeParse(body);
          if (!parsed.success) throw new Error(`Message does not match its schema: ${parsed.error.message}`);
          const started = Date.now();
          const result = await work(parsed.data, deps, record);
          log('info', 'Queue message done', {
            worker: name,
            messageId: record.messageId,
            ms: Date.now() - started,
            result,
          });
        } catch (error) {
          log('error', 'Queue message failed', {
            worker: name,
            messageId: record.messageId,
            receiveCount: record.attributes?.ApproximateReceiveCount,
            error: error instanceof Error ? error.message : String(error),
            stack: error instanceof Error ? error.stack : undefined,
          });
          batchItemFailures.push({ itemIdentifier: record.messageId });
          if (group !== undefined) failedGroups.add(group);
        }
      }
      return { batchItemFailures };
    });
};
