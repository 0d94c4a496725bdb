import { readEnv } from '../_shared/env';
import { sqsWorker } from '../_shared/queue/sqs-worker';
import { CODE_RELEASES_ENV, createRolloutPrepareDeps } from './deps';
import { PrepareMessage } from './domain/prepare-message';

const env = readEnv(CODE_RELEASES_ENV);

/**
 * The rollouts queue's worker: assigns the devices of a rollout too large to assign in its request, a step of them per
 * message (docs/code-releases.md, "Limits"; decision 114).
 */
export const handler = sqsWorker(
  'CodeReleasesWorker',
  PrepareMessage,
  (message, { prepare }, record) =>
    prepare.run(message.rolloutId, Number(record.attributes?.ApproximateReceiveCount ?? 1)),
  { deps: () => createRolloutPrepareDeps(env) },
);
