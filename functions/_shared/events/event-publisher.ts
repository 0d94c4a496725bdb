import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DomainEvent } from '../../../shared/contracts/events';
import { createQueueSender } from '../queue/queue-sender';

/** Sends domain events to the jobs queue, all or nothing as far as the caller can tell. */
export const createEventPublisher = ({ sqs, queueUrl }: { sqs: SQSClient; queueUrl: string }) => {
  const sender = createQueueSender<DomainEvent>({ sqs, queueUrl, queueName: 'jobs' });
  return { publish: sender.send };
};

export type EventPublisher = ReturnType<typeof createEventPublisher>;
