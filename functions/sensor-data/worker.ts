import { readEnv } from '../_shared/env';
import { sqsWorker } from '../_shared/queue/sqs-worker';
import { SensorDataMessage } from '../_shared/sensor-data/queue-messages';
import { createSensorDataWorkerDeps, SENSOR_DATA_ENV } from './deps';
import { exportJob } from './handlers/export-job';
import { rollupJob } from './handlers/rollup-job';

const env = readEnv(SENSOR_DATA_ENV);

/** The sensor-data queue's worker: roll-ups after ingest, and download exports. */
export const handler = sqsWorker(
  'SensorDataWorker',
  SensorDataMessage,
  (message, deps) => (message.kind === 'rollup' ? rollupJob(message, deps) : exportJob(message, deps)),
  { deps: () => createSensorDataWorkerDeps(env) },
);
