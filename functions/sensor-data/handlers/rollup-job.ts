import type { RollupMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataWorkerDeps } from '../deps';
import { recomputeRollups } from '../domain/rollups-recompute';
import { createChartDataStore } from '../store/chart-data-store';
import { createRollupStore } from '../store/rollup-store';

/** The worker's roll-up message: recompute the listed hours, their days and chart-data objects. */
export const rollupJob = (message: RollupMessage, deps: SensorDataWorkerDeps) =>
  recomputeRollups(message, {
    readings: deps.readings,
    rollups: createRollupStore({ db: deps.db, tableName: deps.env.rollupsTable }),
    charts: createChartDataStore({ s3: deps.s3, bucket: deps.env.chartDataBucket }),
  });
