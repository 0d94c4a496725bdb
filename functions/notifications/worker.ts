import { JobsMessage } from '../../shared/contracts/events';
import { readEnv } from '../_shared/env';
import { sqsWorker } from '../_shared/queue/sqs-worker';
import { createWorkerDeps, NOTIFICATIONS_WORKER_ENV } from './deps';

const env = readEnv(NOTIFICATIONS_WORKER_ENV);

/** The jobs queue's worker: domain events become notifications, which it resolves and delivers (docs/notifications.md). */
export const handler = sqsWorker(
  'NotificationsWorker',
  JobsMessage,
  (message, { delivery }) => delivery.work(message),
  {
    deps: () => createWorkerDeps(env),
  },
);
