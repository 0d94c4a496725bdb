import type { readingsRoutes } from '../../../shared/contracts/sensor-data-readings';
import type { PartHandlers, PartReadAhead, PartReadBeside } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';
import { EarlyPage, tiersTable } from '../domain/readings';

export const readingsHandlers: PartHandlers<typeof readingsRoutes, SensorDataDeps> = {
  listReadings: async ({ caller, params, query, ahead, beside }, { reads, dataAccess }) =>
    reads.list(
      caller,
      params.id,
      query,
      await dataAccess.resolve(caller, params.id, ahead),
      beside instanceof EarlyPage ? beside : undefined,
    ),
  series: async ({ caller, params, query, ahead }, { reads, dataAccess }) =>
    reads.series(caller, params.id, query, await dataAccess.resolve(caller, params.id, ahead)),
  dataSummary: async ({ caller, params, ahead }, { reads, dataAccess }) =>
    reads.summary(caller, params.id, await dataAccess.resolve(caller, params.id, ahead)),
  listTiers: async (_request, { tiers }) => tiersTable(await tiers.table()),
};

/** The device, its subscription and the caller's relations to it, read with the session record (docs/sensor-data.md). */
export const readingsReadAhead: PartReadAhead<typeof readingsRoutes, SensorDataDeps> = {
  listReadings: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
  series: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
  dataSummary: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
};

/** The page's first Query, started beside the read of the session record: one round trip before the answer. */
export const readingsReadBeside: PartReadBeside<typeof readingsRoutes, SensorDataDeps> = {
  listReadings: ({ params, query }, { reads }) => reads.startPage(params.id, query),
};
