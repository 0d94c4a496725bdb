import type { RouteFixture } from './authz-fixtures';

/** The authorization matrix's fixtures for the api routes (merged in authz-fixtures.ts). */
export const API_FIXTURES: Record<string, RouteFixture> = {};
