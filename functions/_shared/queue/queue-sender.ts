import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** Sends messages (each with a `kind`, also set as a message attribute) to one queue, 10 per call. */
export const createQueueSender = <T extends { kind: string }>({
  sqs,
  queueUrl,
  queueName,
}: {
  sqs: SQSClient;
  queueUrl: string;
  /** For error messages: "The {queueName} queue refused …". */
  queueName: string;
}) => ({
  /** All or nothing as far as the caller can tell: any refused message throws. */
  send: async (messages: readonly T[]): Promise<void> => {
    for (let start = 0; start < messages.length; start += 10) {
      const batch = messages.slice(start, start + 10);
      const result = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((message, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(message),
            MessageAttributes: { kind: { DataType: 'String', StringValue: message.kind } },
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
