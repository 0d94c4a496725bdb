import type { exportsRoutes } from '../../../shared/contracts/sensor-data-exports';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const exportsHandlers: PartHandlers<typeof exportsRoutes, SensorDataDeps> = {
  createExport: ({ caller, params, body, sourceIp }, { downloads }) =>
    downloads.create(caller, params.id, body, sourceIp),
  getExport: ({ caller, params }, { downloads }) => downloads.get(caller, params.exportId),
  listMyExports: ({ caller, query }, { downloads }) => downloads.listMine(caller, query),
};
