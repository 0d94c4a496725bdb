import type { RollupMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataWorkerDeps } from '../deps';
import { recomputeRollups } from '../domain/rollups-recompute';

/**
 * The worker's roll-up message: recompute the listed hours, their days and chart-data objects, unless a recompute
 * since the message was sent (`sentAt`, SQS's own time) has done it.
 */
export const rollupJob = (message: RollupMessage, { rollupWork }: SensorDataWorkerDeps, sentAt?: number) =>
  recomputeRollups(
    { deviceId: message.deviceId, hours: message.hours, sentAt, notBefore: message.notBefore },
    rollupWork,
  );
