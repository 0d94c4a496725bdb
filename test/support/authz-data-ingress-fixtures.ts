import type { RouteFixture } from './authz-fixtures';

/** The authorization matrix's fixtures for the data-ingress routes (merged in authz-fixtures.ts). */
export const DATA_INGRESS_FIXTURES: Record<string, RouteFixture> = {};
