import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * Resolves once a queue holds no message, waiting or in flight: its worker (the local poller deletes each
 * message after its handler) has worked everything. Used by tests and the bench, so it takes its own client.
 */
export const untilQueueEmpty = async (
  sqs: SQSClient,
  queueUrl: string,
  { timeoutMs = Number.POSITIVE_INFINITY }: { timeoutMs?: number } = {},
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    if (Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible) === 0)
      return;
    if (Date.now() > deadline) throw new Error(`The queue ${queueUrl} did not drain in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};
