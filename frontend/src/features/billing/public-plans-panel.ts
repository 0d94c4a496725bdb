import { lazy } from 'react';

/**
 * A device's plans, for the device page (docs/style.md §9): a chunk of its own, since most visits to a device page
 * never open the catalogue.
 */
export const PlansPanel = lazy(() => import('./plans-panel').then((m) => ({ default: m.PlansPanel })));
