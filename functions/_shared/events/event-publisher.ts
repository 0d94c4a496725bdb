import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DomainEvent } from '../../../shared/contracts/events';

/** Sends domain events to the jobs queue, all or nothing as far as the caller can tell. */
export const createEventPublisher = ({ sqs, queueUrl }: { sqs: SQSClient; queueUrl: string }) => ({
  publish: async (events: readonly DomainEvent[]): Promise<void> => {
    for (let start = 0; start < events.length; start += 10) {
      const batch = events.slice(start, start + 10);
      const result = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((event, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(event),
            MessageAttributes: { kind: { DataType: 'String', StringValue: event.kind } },
          })),
        }),
      );
      if (result.Failed?.length) {
        throw new Error(`The jobs queue refused ${result.Failed.length} event(s): ${result.Failed[0]!.Message}`);
      }
    }
  },
});

export type EventPublisher = ReturnType<typeof createEventPublisher>;
