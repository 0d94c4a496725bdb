import type { ReprocessMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataWorkerDeps } from '../deps';

/** The worker's reprocessing message: one step of the device's run (docs/data-quality.md "Reprocessing"). */
export const reprocessJob = (message: ReprocessMessage, { reprocessJob: runner }: SensorDataWorkerDeps) =>
  runner.step(message.deviceId, message.cursor);
