import type { Routes } from './define-route';

/** The sensor-data area's exports routes (docs/sensor-data.md); composed into the area in sensor-data.ts. */
export const exportsRoutes = {} satisfies Routes;
