import { readEnv } from '../_shared/env';
import { createApiKeysDeps } from './wiring/api-keys';
import { createCampaignsDeps } from './wiring/campaigns';
import { createCommonDeps, SENSOR_DATA_ENV } from './wiring/common';
import { createExportsDeps } from './wiring/exports';
import { createLiveDeps } from './wiring/live';
import { createQualityDeps } from './wiring/quality';
import { createReadingsDeps } from './wiring/readings';

export { SENSOR_DATA_ENV };

export const createSensorDataDeps = (env = readEnv(SENSOR_DATA_ENV)) => {
  const common = createCommonDeps(env);
  return {
    ...common,
    ...createReadingsDeps(common),
    ...createExportsDeps(common),
    ...createLiveDeps(common),
    ...createApiKeysDeps(common),
    ...createCampaignsDeps(common),
    ...createQualityDeps(common),
  };
};

export type SensorDataDeps = ReturnType<typeof createSensorDataDeps>;

/**
 * The queue worker's part: roll-ups, reprocessing and export files only. Without the live view's IoT and
 * Cognito-identity clients, which the worker never calls and which would otherwise be bundled into it.
 */
export const createSensorDataWorkerDeps = (env = readEnv(SENSOR_DATA_ENV)) => {
  const common = createCommonDeps(env);
  return { ...common, ...createReadingsDeps(common), ...createExportsDeps(common), ...createQualityDeps(common) };
};

export type SensorDataWorkerDeps = ReturnType<typeof createSensorDataWorkerDeps>;
