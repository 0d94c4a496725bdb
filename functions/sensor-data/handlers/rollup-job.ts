import type { RollupMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataWorkerDeps } from '../deps';
import { recomputeRollups } from '../domain/rollups-recompute';
import { createChartDataStore } from '../store/chart-data-store';
import { createRollupStore } from '../store/rollup-store';

/**
 * The worker's roll-up message: recompute the listed hours, their days and chart-data objects, unless a recompute
 * since the message was sent (`sentAt`, SQS's own time) has done it.
 */
export const rollupJob = (message: RollupMessage, deps: SensorDataWorkerDeps, sentAt?: number) =>
  recomputeRollups(
    { deviceId: message.deviceId, hours: message.hours, sentAt, notBefore: message.notBefore },
    {
      readings: deps.readings,
      rollups: createRollupStore({ db: deps.db, tableName: deps.env.rollupsTable }),
      charts: createChartDataStore({ s3: deps.s3, bucket: deps.env.chartDataBucket }),
      profiles: deps.profiles,
      now: deps.now,
    },
  );
