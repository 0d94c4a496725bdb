import type { RouteFixture } from './authz-fixtures';

/** The authorization matrix's fixtures for the sensor-data-api-keys routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_API_KEYS_FIXTURES: Record<string, RouteFixture> = {};
