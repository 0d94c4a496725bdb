import { sensorDataAudit } from '../../shared/contracts/audit/sensor-data';
import { sensorData } from '../../shared/contracts/sensor-data';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createSensorDataDeps, readLiveEnv, SENSOR_DATA_ENV } from './deps';
import { apiKeysHandlers, apiKeysReadAhead } from './handlers/api-keys';
import { campaignHandlers, campaignReadAhead } from './handlers/campaigns';
import { exportsHandlers } from './handlers/exports';
import { liveHandlers } from './handlers/live';
import { readingsHandlers, readingsReadAhead, readingsReadBeside } from './handlers/readings';
import { staHandlers, staReadAhead } from './handlers/sta';
import { sensorDataCredentials } from './wiring/credentials';
import { createStaDeps } from './wiring/sta';

const env = readEnv(SENSOR_DATA_ENV);
const live = readLiveEnv();

export const handler = httpArea(
  sensorData,
  { ...readingsHandlers, ...exportsHandlers, ...liveHandlers, ...apiKeysHandlers, ...campaignHandlers, ...staHandlers },
  {
    audit: sensorDataAudit,
    deps: () => {
      const deps = createSensorDataDeps(env, live);
      return { ...deps, ...createStaDeps(deps) };
    },
    credentials: sensorDataCredentials(env),
    readAhead: { ...readingsReadAhead, ...apiKeysReadAhead, ...campaignReadAhead, ...staReadAhead },
    readBeside: readingsReadBeside,
  },
);
