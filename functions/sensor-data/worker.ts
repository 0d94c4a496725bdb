import { readEnv } from '../_shared/env';
import { lambdaCounters } from '../_shared/metrics';
import { NotDueYet, sqsWorker } from '../_shared/queue/sqs-worker';
import { SensorDataMessage } from '../_shared/sensor-data/queue-messages';
import { createSensorDataWorkerDeps, SENSOR_DATA_ENV } from './deps';
import { exportJob } from './handlers/export-job';
import { rollupJob } from './handlers/rollup-job';
import { countRollupLag, sentTimeOf } from './handlers/rollup-lag';

const env = readEnv(SENSOR_DATA_ENV);

/** The sensor-data queue's worker: roll-ups after ingest (a coalesced one when it is due), and download exports. */
export const handler = sqsWorker(
  'SensorDataWorker',
  SensorDataMessage,
  async (message, deps, record) => {
    if (message.kind !== 'rollup') return exportJob(message, deps);
    if (message.notBefore !== undefined && message.notBefore > deps.now()) throw new NotDueYet(message.notBefore);
    const result = await rollupJob(message, deps, sentTimeOf(record));
    countRollupLag(record, message.notBefore, deps.now(), lambdaCounters);
    return result;
  },
  {
    deps: () => createSensorDataWorkerDeps(env),
    postpone: (deps) => deps.postpone,
  },
);
