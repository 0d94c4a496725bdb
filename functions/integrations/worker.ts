import { LaneWake } from '../_shared/integrations/webhook-records';
import { sqsWorker } from '../_shared/queue/sqs-worker';
import { createIntegrationsDeps, readIntegrationsEnv } from './deps';

const env = readIntegrationsEnv();

/** The integrations queue's worker: each message runs one webhook's lane (docs/integrations.md, "Delivery"). */
export const handler = sqsWorker('IntegrationsWorker', LaneWake, (message, { lanes }) => lanes.run(message), {
  deps: () => createIntegrationsDeps(env),
});
