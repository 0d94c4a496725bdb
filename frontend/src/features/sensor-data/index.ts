import { lazy } from 'react';

/**
 * What the device page may use of the sensor data (docs/style.md §9, §17): the export panel, and the panels that bring
 * uPlot and MQTT (issue 13) as chunks of their own; the router starts both downloads beside the page's. A campaign's
 * comparison has its own public entry (public-campaign-comparison.ts), so the campaign page carries no export panel,
 * and so has "Use this data" (public-open-data.ts), which a dataset's page shows too.
 */
export { ExportPanel } from './export-panel';

export const SensorDataPanel = lazy(() => import('./sensor-data-panel').then((m) => ({ default: m.SensorDataPanel })));
export const LivePanel = lazy(() => import('./live-panel').then((m) => ({ default: m.LivePanel })));
