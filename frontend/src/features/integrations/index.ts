import { lazy } from 'react';

/**
 * What other features may use of the integrations (docs/style.md §9, §17): the Integrations panel of a device,
 * campaign or organization page, loaded when it is shown, so a page's own chunk does not carry it.
 */
export const IntegrationsPanel = lazy(() =>
  import('./integrations-panel').then((m) => ({ default: m.IntegrationsPanel })),
);
