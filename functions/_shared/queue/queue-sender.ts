import { randomUUID } from 'node:crypto';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { currentCorrelationId } from '../logger';

/** The message attribute that carries the sender's correlation id to the worker's log lines. */
export const CORRELATION_ID_ATTRIBUTE = 'correlationId';

/** Sends messages (each with a `kind`, also set as a message attribute) to one queue, 10 per call. */
export const createQueueSender = <T extends { kind: string }>({
  sqs,
  queueUrl,
  queueName,
  groupOf,
  delayOf,
}: {
  sqs: SQSClient;
  queueUrl: string;
  /** For error messages: "The {queueName} queue refused …". */
  queueName: string;
  /**
   * A FIFO queue's message group: messages of one group are worked in order, one at a time. Each message gets
   * its own deduplication id: two equal messages sent minutes apart (new readings in the same hour) are two
   * pieces of work, which content-based deduplication would merge into one.
   */
  groupOf?: (message: T) => string;
  /** A standard queue's delay of each message (0–900 s): it becomes visible that much later (SQS message timers). */
  delayOf?: (message: T) => number | undefined;
}) => ({
  /** All or nothing as far as the caller can tell: any refused message throws. */
  send: async (messages: readonly T[]): Promise<void> => {
    const correlationId = currentCorrelationId();
    for (let start = 0; start < messages.length; start += 10) {
      const batch = messages.slice(start, start + 10);
      const result = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((message, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(message),
            MessageAttributes: {
              kind: { DataType: 'String', StringValue: message.kind },
              ...(correlationId
                ? { [CORRELATION_ID_ATTRIBUTE]: { DataType: 'String', StringValue: correlationId } }
                : {}),
            },
            ...(groupOf ? { MessageGroupId: groupOf(message), MessageDeduplicationId: randomUUID() } : {}),
            ...(delayOf?.(message) ? { DelaySeconds: delayOf(message) } : {}),
          })),
        }),
      );
      if (result.Failed?.length) {
        throw new Error(
          `The ${queueName} queue refused ${result.Failed.length} message(s): ${result.Failed[0]!.Message}`,
        );
      }
    }
  },
});

export type QueueSender<T extends { kind: string }> = ReturnType<typeof createQueueSender<T>>;
