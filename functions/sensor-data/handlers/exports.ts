import type { exportsRoutes } from '../../../shared/contracts/sensor-data-exports';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const exportsHandlers: PartHandlers<typeof exportsRoutes, SensorDataDeps> = {};
