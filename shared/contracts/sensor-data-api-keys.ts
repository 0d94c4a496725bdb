import type { Routes } from './define-route';

/** The sensor-data area's api-keys routes (docs/sensor-data.md); composed into the area in sensor-data.ts. */
export const apiKeysRoutes = {} satisfies Routes;
