import type { RouteFixture } from './authz-fixtures';

/** The authorization matrix's fixtures for the sensor-data-exports routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_EXPORTS_FIXTURES: Record<string, RouteFixture> = {};
