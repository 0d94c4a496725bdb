import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type SqsHandler, startSqsPoller } from '../../infra/local/sqs-poller';

/**
 * One worker's real handler behind the local poller, as infra/local/stack.ts runs it, in a process of its own, so a
 * fault test can kill it with SIGKILL in the middle of a batch: `node --import tsx test/support/queue-worker-process.ts
 * {entry} {queueUrl}`, with the stack's variables (test/support/stack-env.ts) in its environment. tsx as a loader,
 * not its CLI, which would run this in a second process that outlives a kill of the first.
 */
const [entry, queueUrl] = process.argv.slice(2);
if (!entry || !queueUrl) throw new Error('Usage: queue-worker-process.ts {worker entry} {queue URL}');
const { handler } = (await import(pathToFileURL(path.resolve(entry)).href)) as { handler: SqsHandler };
startSqsPoller({
  sqs: new SQSClient({ region: process.env.AWS_REGION, endpoint: process.env.AWS_ENDPOINT_URL_SQS }),
  queueUrl,
  queueArn: '',
  handler,
  waitSeconds: 1,
  onError: (error) => console.error(error),
});
console.log('polling');
