import type { RouteFixture } from './authz-fixtures';

/** The authorization matrix's fixtures for the sensor-data-readings routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_READINGS_FIXTURES: Record<string, RouteFixture> = {};
