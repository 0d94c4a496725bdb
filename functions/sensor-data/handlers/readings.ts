import type { readingsRoutes } from '../../../shared/contracts/sensor-data-readings';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const readingsHandlers: PartHandlers<typeof readingsRoutes, SensorDataDeps> = {};
