import type { ExportMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataDeps } from '../deps';

export const exportJob = async (message: ExportMessage, _deps: SensorDataDeps): Promise<unknown> => {
  throw new Error(`export jobs are not built yet: ${JSON.stringify(message)}`);
};
