import type { apiKeysRoutes } from '../../../shared/contracts/sensor-data-api-keys';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const apiKeysHandlers: PartHandlers<typeof apiKeysRoutes, SensorDataDeps> = {
  createApiKey: ({ caller, body }, { apiKeys }) => apiKeys.create(caller, body.name),
  listApiKeys: ({ caller }, { apiKeys }) => apiKeys.list(caller),
  revokeApiKey: ({ caller, params }, { apiKeys }) => apiKeys.revoke(caller, params.keyId),
  apiReadings: ({ caller, apiKey, params, query, setHeader }, { publicApi, reads }) =>
    publicApi.metered(caller, apiKey, params.id, query, setHeader, (access) =>
      reads.list(caller, params.id, query, access),
    ),
  apiSeries: ({ caller, apiKey, params, query, setHeader }, { publicApi, reads }) =>
    publicApi.metered(caller, apiKey, params.id, query, setHeader, (access) =>
      reads.series(caller, params.id, query, access),
    ),
  deviceApiUsage: ({ caller, params }, { publicApi }) => publicApi.deviceUsage(caller, params.id),
  myApiUsage: ({ caller }, { publicApi }) => publicApi.myUsage(caller),
};
