import type { ExportMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataWorkerDeps } from '../deps';

/** The worker's export message: writes the file (docs/sensor-data.md "Downloads"). */
export const exportJob = (message: ExportMessage, { downloadJob }: SensorDataWorkerDeps) =>
  downloadJob.run(message.exportId);
