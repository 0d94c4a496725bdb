import { lazy } from 'react';

/**
 * A campaign's data-quality panel for its managers and staff, a chunk of its own loaded only for them. A public entry
 * of its own (docs/style.md §9), apart from index.ts (the device page's panels).
 */
export const CampaignQualityPanel = lazy(() =>
  import('./campaign-quality-panel').then((m) => ({ default: m.CampaignQualityPanel })),
);
