import type { campaignRoutes } from '../../../shared/contracts/sensor-data-campaigns';
import type { PartHandlers, PartReadAhead } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const campaignHandlers: PartHandlers<typeof campaignRoutes, SensorDataDeps> = {
  campaignSeries: ({ caller, params, query, ahead }, { campaignSeries }) =>
    campaignSeries.compare(caller, params.id, query, ahead),
};

/** The campaign's record and the caller's relations to it, read with the session record (docs/sensor-data.md). */
export const campaignReadAhead: PartReadAhead<typeof campaignRoutes, SensorDataDeps> = {
  campaignSeries: ({ caller, params }, { campaignSeries }) => campaignSeries.readAhead(caller, params.id),
};
