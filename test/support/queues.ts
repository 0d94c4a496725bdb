import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { QUEUES } from '../../infra/definitions/storage';

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

/** A queue of a test's own and its dead-letter queue. */
export interface OwnQueue {
  url: string;
  deadLetterUrl: string;
  fifo: boolean;
}

/**
 * A queue of a test's own standing for one of the stack's (FIFO or not, dead-lettered after as many receives), with a
 * visibility timeout of seconds (the stack's are minutes), so a message a failed or killed worker held comes back
 * within the test, and no message of the shared stack is disturbed.
 */
export const ownQueue = async (
  sqs: SQSClient,
  stands: keyof typeof QUEUES,
  prefix: string,
  visibilitySeconds: number,
): Promise<OwnQueue> => {
  const { fifo, maxReceiveCount } = QUEUES[stands];
  const name = `${prefix}-${stands}-${randomUUID().slice(0, 8)}`;
  const suffix = fifo ? '.fifo' : '';
  const fifoAttributes: Record<string, string> = fifo ? { FifoQueue: 'true' } : {};
  const dead = await sqs.send(
    new CreateQueueCommand({ QueueName: `${name}-dlq${suffix}`, Attributes: fifoAttributes }),
  );
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dead.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}${suffix}`,
      Attributes: {
        ...fifoAttributes,
        VisibilityTimeout: String(visibilitySeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount }),
      },
    }),
  );
  return { url: queue.QueueUrl!, deadLetterUrl: dead.QueueUrl!, fifo };
};

export const deleteOwnQueue = async (sqs: SQSClient, queue: OwnQueue | undefined) => {
  if (!queue) return;
  await sqs.send(new DeleteQueueCommand({ QueueUrl: queue.url }));
  await sqs.send(new DeleteQueueCommand({ QueueUrl: queue.deadLetterUrl }));
};

/** How many messages a queue holds: waiting, and received by a worker that has not deleted them (in flight). */
export const waitingIn = async (sqs: SQSClient, url: string) => {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
  };
};

/**
 * A worker's real handler behind the local poller in a process of its own (test/support/queue-worker-process.ts), so
 * a test can kill it with SIGKILL in the middle of a message. `env` is its whole environment (the stack's variables:
 * test/support/stack-env.ts); `output` is what it printed, for a failure's message.
 */
export const startWorkerProcess = (rootDir: string, entry: string, queueUrl: string, env: NodeJS.ProcessEnv) => {
  let output = '';
  const child = spawn(
    process.execPath,
    // tsx as a loader, not its CLI: the CLI runs the script in a second process, which a kill of the first outlives.
    ['--import', 'tsx', 'test/support/queue-worker-process.ts', entry, queueUrl],
    { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
};
