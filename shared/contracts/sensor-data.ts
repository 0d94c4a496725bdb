import { defineArea } from './define-route';
import { apiKeysRoutes } from './sensor-data-api-keys';
import { campaignRoutes } from './sensor-data-campaigns';
import { exportsRoutes } from './sensor-data-exports';
import { liveRoutes } from './sensor-data-live';
import { readingsRoutes } from './sensor-data-readings';
import { staRoutes } from './sensor-data-sta';

/**
 * Sensor data (docs/sensor-data.md): reads and charts, campaign comparisons, downloads, the live view and the
 * public API (with its SensorThings API), each gated by the device's access and its tier. One area, one Lambda; its routes are defined in one file per part.
 */
export const sensorData = defineArea('sensor-data', {
  ...readingsRoutes,
  ...exportsRoutes,
  ...liveRoutes,
  ...apiKeysRoutes,
  ...campaignRoutes,
  ...staRoutes,
});
