import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

export interface SqsPollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  handler: SqsHandler;
  /** @default 10, as the Lambda event source */
  batchSize?: number;
  /** @default 1 second, so a local stop is quick */
  waitSeconds?: number;
  /**
   * Batches worked at once. Lambda's event source runs several pollers and invocations side by side, so a
   * worker must cope with concurrent batches (and FIFO groups are what keep one group's messages apart).
   * @default 1
   */
  concurrency?: number;
  onError?: (error: unknown) => void;
}

/**
 * What Lambda's SQS event source does, for the local home: receive a batch, hand it to the worker
 * handler as an SQS event, delete only the messages that did not fail (partial batch responses).
 * A message that keeps failing is left for the queue's redrive policy to move to the dead-letter queue.
 */
export const startSqsPoller = (options: SqsPollerOptions) => {
  let running = true;
  let paused = false;
  let busy = 0;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const poll = async () => {
    while (running) {
      if (paused) {
        await sleep(50);
        continue;
      }
      busy++;
      try {
        const received = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize ?? 10,
            WaitTimeSeconds: options.waitSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        const messages = received.Messages ?? [];
        if (!messages.length || !running) continue;
        const records: SQSRecord[] = messages.map((m) => ({
          messageId: m.MessageId!,
          receiptHandle: m.ReceiptHandle!,
          body: m.Body ?? '',
          attributes: (m.Attributes ?? {}) as unknown as SQSRecord['attributes'],
          messageAttributes: Object.fromEntries(
            Object.entries(m.MessageAttributes ?? {}).map(([name, value]) => [
              name,
              { stringValue: value.StringValue, dataType: value.DataType ?? 'String' },
            ]),
          ) as SQSRecord['messageAttributes'],
          md5OfBody: m.MD5OfBody ?? '',
          eventSource: 'aws:sqs',
          eventSourceARN: options.queueArn,
          awsRegion: 'local',
        }));
        let failed = new Set(records.map((r) => r.messageId));
        try {
          const result = await options.handler({ Records: records });
          failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          options.onError?.(error);
        }
        const succeeded = messages.filter((m) => !failed.has(m.MessageId!));
        if (succeeded.length) {
          await options.sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: succeeded.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
            }),
          );
        }
      } catch (error) {
        if (!running) break;
        options.onError?.(error);
        await new Promise<void>((resolve) => {
          const wake = () => {
            wakers.delete(wake);
            resolve();
          };
          wakers.add(wake);
          setTimeout(wake, 1_000);
        });
      } finally {
        busy--;
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.concurrency ?? 1 }, poll));
  return {
    /** Stops taking messages and resolves once the batches in hand are done (for measuring without the worker). */
    pause: async () => {
      paused = true;
      while (busy > 0) await sleep(20);
    },
    resume: () => {
      paused = false;
    },
    stop: async () => {
      running = false;
      for (const wake of wakers) wake();
      await done;
    },
  };
};
