import type { RouteFixture } from './authz-fixtures';

/** The authorization matrix's fixtures for the sensor-data-live routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_LIVE_FIXTURES: Record<string, RouteFixture> = {};
