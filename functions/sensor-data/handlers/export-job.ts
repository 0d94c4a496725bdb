import type { ExportMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataDeps } from '../deps';

/** The worker's export message: writes the file (docs/sensor-data.md "Downloads"). */
export const exportJob = (message: ExportMessage, { downloadJob }: SensorDataDeps) => downloadJob.run(message.exportId);
