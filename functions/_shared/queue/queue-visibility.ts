import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Postpone } from './sqs-worker';

/**
 * A worker's way to put a received message back for a while (a coalesced roll-up not due yet). The event source's
 * grant to consume the queue includes ChangeMessageVisibility.
 */
export const createPostpone =
  ({ sqs, queueUrl }: { sqs: SQSClient; queueUrl: string }): Postpone =>
  async (receiptHandle, seconds) => {
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );
  };
