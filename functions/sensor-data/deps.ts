import { createApiKeysDeps } from './wiring/api-keys';
import { createCampaignsDeps } from './wiring/campaigns';
import { createCommonDeps, type SensorDataEnv } from './wiring/common';
import { createExportsDeps } from './wiring/exports';
import { createLiveDeps, type LiveEnv } from './wiring/live';
import { createReadingsDeps } from './wiring/readings';
import { createRollupsDeps } from './wiring/rollups';
import type { createStaDeps } from './wiring/sta';

export { SENSOR_DATA_ENV } from './wiring/common';
export { readLiveEnv } from './wiring/live';

/** The area's API: every part (wiring/{part}.ts) over the common dependencies. */
export const createSensorDataDeps = (env: SensorDataEnv, live: LiveEnv) => {
  const common = createCommonDeps(env);
  return {
    ...common,
    ...createReadingsDeps(common),
    ...createExportsDeps(common),
    ...createLiveDeps(common, live),
    ...createApiKeysDeps(common),
    ...createCampaignsDeps(common),
  };
};

/**
 * The API Lambda's dependencies: the area's, and the SensorThings service's, which handler.ts adds (wiring/sta.ts
 * carries the OData parser, which the worker's bundle, built from this module, must not).
 */
export type SensorDataDeps = ReturnType<typeof createSensorDataDeps> & ReturnType<typeof createStaDeps>;

/**
 * The queue worker's part: roll-ups and export files only. Without the live view's IoT and Cognito-identity clients,
 * which the worker never calls and which would otherwise be bundled into it.
 */
export const createSensorDataWorkerDeps = (env: SensorDataEnv) => {
  const common = createCommonDeps(env);
  return { ...common, ...createRollupsDeps(common), ...createExportsDeps(common) };
};

export type SensorDataWorkerDeps = ReturnType<typeof createSensorDataWorkerDeps>;
