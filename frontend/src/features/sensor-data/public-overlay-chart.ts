import { lazy } from 'react';

/**
 * What other features draw on a device's chart (docs/style.md §9): the overlay's shapes, and one measurement's chart
 * with an overlay (uPlot: a chunk of its own, the one the device page's charts already load).
 */
export type { ChartOverlay, ChartOverlays, OverlayBand, OverlayLine } from './chart-overlays';

export const OverlayChart = lazy(() => import('./overlay-chart').then((m) => ({ default: m.OverlayChart })));
