import type { apiKeysRoutes } from '../../../shared/contracts/sensor-data-api-keys';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const apiKeysHandlers: PartHandlers<typeof apiKeysRoutes, SensorDataDeps> = {};
