import type { apiKeysRoutes } from '../../../shared/contracts/sensor-data-api-keys';
import type { PartHandlers, PartReadAhead } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const apiKeysHandlers: PartHandlers<typeof apiKeysRoutes, SensorDataDeps> = {
  createApiKey: ({ caller, body }, { apiKeys }) => apiKeys.create(caller, body.name),
  listApiKeys: ({ caller }, { apiKeys }) => apiKeys.list(caller),
  revokeApiKey: ({ caller, params }, { apiKeys }) => apiKeys.revoke(caller, params.keyId),
  apiReadings: ({ caller, apiKey, params, query, setHeader, ahead }, { publicApi, reads }) =>
    publicApi.metered({ caller, key: apiKey, deviceId: params.id, requested: query, setHeader, ahead }, (access) =>
      reads.list(caller, params.id, query, access, undefined, ahead),
    ),
  apiSeries: ({ caller, apiKey, params, query, setHeader, ahead }, { publicApi, reads }) =>
    publicApi.metered({ caller, key: apiKey, deviceId: params.id, requested: query, setHeader, ahead }, (access) =>
      reads.series(caller, params.id, query, access, ahead),
    ),
  deviceApiUsage: ({ caller, params, ahead }, { publicApi }) => publicApi.deviceUsage(caller, params.id, ahead),
  myApiUsage: ({ caller }, { publicApi }) => publicApi.myUsage(caller),
};

/** The gate's device, subscription and relations (and for a read its quality profile), read with the key owner's session record. */
export const apiKeysReadAhead: PartReadAhead<typeof apiKeysRoutes, SensorDataDeps> = {
  apiReadings: ({ caller, params }, { dataAccess, profiles }) => [
    ...dataAccess.readAhead(caller, params.id),
    profiles.keyRead(params.id),
  ],
  apiSeries: ({ caller, params }, { dataAccess, profiles }) => [
    ...dataAccess.readAhead(caller, params.id),
    profiles.keyRead(params.id),
  ],
  deviceApiUsage: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
};
