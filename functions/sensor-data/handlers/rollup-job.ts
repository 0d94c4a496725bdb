import type { RollupMessage } from '../../_shared/sensor-data/queue-messages';
import type { SensorDataDeps } from '../deps';

export const rollupJob = async (message: RollupMessage, _deps: SensorDataDeps): Promise<unknown> => {
  throw new Error(`rollup jobs are not built yet: ${JSON.stringify(message)}`);
};
