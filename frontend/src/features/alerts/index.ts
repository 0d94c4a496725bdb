import { lazy } from 'react';

/**
 * The alerts feature's public entry (docs/style.md §9): the device page's Alerts panel, a chunk of its own loaded once a
 * signed-in person opens a device. What the charts draw is `public-alert-overlays.ts`.
 */
export const AlertsPanel = lazy(() => import('./alerts-panel').then((m) => ({ default: m.AlertsPanel })));
