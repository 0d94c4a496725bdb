import { readEnv } from '../_shared/env';
import { lambdaCounters } from '../_shared/metrics';
import { sqsWorker } from '../_shared/queue/sqs-worker';
import { SensorDataMessage } from '../_shared/sensor-data/queue-messages';
import { createSensorDataWorkerDeps, SENSOR_DATA_ENV } from './deps';
import { exportJob } from './handlers/export-job';
import { rollupJob } from './handlers/rollup-job';
import { countRollupLag } from './handlers/rollup-lag';

const env = readEnv(SENSOR_DATA_ENV);

/** The sensor-data queue's worker: roll-ups after ingest, and download exports. */
export const handler = sqsWorker(
  'SensorDataWorker',
  SensorDataMessage,
  async (message, deps, record) => {
    if (message.kind !== 'rollup') return exportJob(message, deps);
    const result = await rollupJob(message, deps);
    countRollupLag(record, Date.now(), lambdaCounters);
    return result;
  },
  { deps: () => createSensorDataWorkerDeps(env) },
);
