import { readEnv } from '../_shared/env';
import { sqsWorker } from '../_shared/queue/sqs-worker';
import { createDatasetsDeps, DATASETS_ENV } from './deps';
import { BuildMessage } from './domain/build-message';

const env = readEnv(DATASETS_ENV);

/** The datasets queue's worker: one build step per message (docs/datasets.md "Building"). */
export const handler = sqsWorker(
  'DatasetsWorker',
  BuildMessage,
  (message, { buildJob }) => buildJob.run(message.datasetId),
  { deps: () => createDatasetsDeps(env) },
);
