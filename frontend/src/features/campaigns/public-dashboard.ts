import { lazy } from 'react';

/**
 * What the dashboard uses of the campaigns (docs/style.md §9, §17): a campaign's status badge and window, and the
 * create form, loaded when opened. A public entry apart from index.ts: an entry two chunks import becomes a chunk of
 * its own (vite.config.ts shares a module among three or more), one more request for both pages.
 */
export { CampaignStatusBadge } from './campaign-parts';
export { windowText } from './campaign-rules';

export const NewCampaignForm = lazy(() => import('./campaign-forms').then((m) => ({ default: m.NewCampaignForm })));
