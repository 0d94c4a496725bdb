import type { liveRoutes } from '../../../shared/contracts/sensor-data-live';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const liveHandlers: PartHandlers<typeof liveRoutes, SensorDataDeps> = {};
