import { deviceOwnedBy } from './authz-devices-fixtures';
import type { RouteFixture } from './authz-fixtures';

// Guest routes: a public device lets every caller through (the private-device and tier gates are in
// test/integration/sensor-data/tiers.test.ts).
const onPublicDevice = (query?: Record<string, unknown>): RouteFixture => ({
  prepare: async () => ({
    params: { id: await deviceOwnedBy('approved@example.com', { visibility: 'public' }) },
    ...(query ? { query } : {}),
  }),
});

/** The authorization matrix's fixtures for the sensor-data-readings routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_READINGS_FIXTURES: Record<string, RouteFixture> = {
  listReadings: onPublicDevice({ limit: 5 }),
  series: onPublicDevice({ from: Date.now() - 60 * 60 * 1000, width: 100 }),
  dataSummary: onPublicDevice(),
  listTiers: { prepare: async () => ({}) },
};
