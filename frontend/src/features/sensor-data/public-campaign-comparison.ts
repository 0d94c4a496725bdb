import { lazy } from 'react';

/**
 * The devices' charts of a campaign (uPlot), a chunk of their own loaded once the campaign is read; the router
 * starts the download beside the page's. A public entry of its own (docs/style.md §9), apart from index.ts (the device
 * page's panels).
 */
export const CampaignComparison = lazy(() =>
  import('./campaign-comparison').then((m) => ({ default: m.CampaignComparison })),
);
