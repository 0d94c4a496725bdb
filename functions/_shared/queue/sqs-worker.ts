import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { log, logger } from '../logger';
import { lambdaTelemetry } from '../telemetry';
import { CORRELATION_ID_ATTRIBUTE } from './queue-sender';

/** Puts a received message out of sight for some seconds (SQS's ChangeMessageVisibility), then it comes again. */
export type Postpone = (receiptHandle: string, seconds: number) => Promise<void>;

/**
 * Thrown by a worker's work for a message that may not be worked before `notBefore` (a coalesced roll-up): the
 * message is put out of sight until then and reported failed, so it comes back at that time; no error is logged.
 */
export class NotDueYet extends Error {
  constructor(readonly notBefore: number) {
    super(`Not due before ${new Date(notBefore).toISOString()}`);
  }
}

/** SQS's longest visibility timeout: a later `notBefore` is looked at again after 12 hours. */
const MAX_POSTPONE_SECONDS = 12 * 60 * 60;

export interface SqsWorkerOptions<D> {
  /** Builds the worker's dependencies once per cold start. */
  deps: () => D;
  /** How the worker puts a message back until it is due; needed when `work` may throw {@link NotDueYet}. */
  postpone?: (deps: D) => Postpone;
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
          if (error instanceof NotDueYet && options.postpone) {
            const seconds = Math.min(
              MAX_POSTPONE_SECONDS,
              Math.max(1, Math.ceil((error.notBefore - Date.now()) / 1000)),
            );
            try {
              await options.postpone(deps)(record.receiptHandle, seconds);
              log('info', 'Queue message postponed', { worker: name, messageId: record.messageId, seconds });
            } catch (postponeError) {
              // It comes back after the queue's visibility timeout instead, and is postponed again if still early.
              log('warn', 'Queue message not postponed', {
                worker: name,
                messageId: record.messageId,
                error: postponeError instanceof Error ? postponeError.message : String(postponeError),
              });
            }
            batchItemFailures.push({ itemIdentifier: record.messageId });
            if (group !== undefined) failedGroups.add(group);
            continue;
          }
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
