import type { staRoutes } from '../../../shared/contracts/sensor-data-sta';
import type { PartHandlers, PartReadAhead } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

/** The device a path's first key names (`Things('a')`, `Datastreams('a~pm2_5')`), so its gate is read ahead. */
const firstDevice = (path: string): string | undefined =>
  /^(?:Things|Locations|HistoricalLocations|Datastreams|Observations|FeaturesOfInterest)\('([^'~]+)/.exec(path)?.[1];

export const staHandlers: PartHandlers<typeof staRoutes, SensorDataDeps> = {
  staRoot: ({ caller, url, setHeader }, { sensorThings }) =>
    sensorThings.handle({ caller, path: '', query: {}, url, purpose: 'view', setHeader }),
  staResource: ({ caller, params, query, url, ahead, setHeader }, { sensorThings }) =>
    sensorThings.handle({ caller, path: params.path, query, url, purpose: 'view', ahead, setHeader }),
  apiStaRoot: ({ caller, apiKey, url, setHeader }, { sensorThings, publicApi }) =>
    sensorThings.handle({
      caller,
      path: '',
      query: {},
      url,
      purpose: 'api',
      setHeader,
      meter: (single) => publicApi.meterCall({ key: apiKey, single, setHeader }),
    }),
  apiStaResource: ({ caller, apiKey, params, query, url, ahead, setHeader }, { sensorThings, publicApi }) =>
    sensorThings.handle({
      caller,
      path: params.path,
      query,
      url,
      purpose: 'api',
      ahead,
      setHeader,
      meter: (single) => publicApi.meterCall({ key: apiKey, single, setHeader }),
    }),
};

/** The one device a path names: its record, subscription and the caller's relations, read with the session. */
export const staReadAhead: PartReadAhead<typeof staRoutes, SensorDataDeps> = {
  staResource: ({ caller, params }, { dataAccess }) => {
    const deviceId = firstDevice(params.path);
    return deviceId ? dataAccess.readAhead(caller, deviceId) : [];
  },
  apiStaResource: ({ caller, params }, { dataAccess }) => {
    const deviceId = firstDevice(params.path);
    return deviceId ? dataAccess.readAhead(caller, deviceId) : [];
  },
};
