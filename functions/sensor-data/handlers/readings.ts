import type { readingsRoutes } from '../../../shared/contracts/sensor-data-readings';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';
import { tiersTable } from '../domain/readings';

export const readingsHandlers: PartHandlers<typeof readingsRoutes, SensorDataDeps> = {
  listReadings: ({ caller, params, query }, { reads }) => reads.list(caller, params.id, query),
  series: ({ caller, params, query }, { reads }) => reads.series(caller, params.id, query),
  dataSummary: ({ caller, params }, { reads }) => reads.summary(caller, params.id),
  listTiers: () => tiersTable(),
};
