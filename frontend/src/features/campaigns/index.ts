/**
 * What other features may use of the campaigns (docs/style.md §9, §17): a campaign's status badge, window and table,
 * and the create form an organization's page holds. The dashboard has an entry of its own (public-dashboard.ts).
 */
export { NewCampaignForm } from './campaign-forms';
export { CampaignStatusBadge, CampaignTable } from './campaign-parts';
export { windowText } from './campaign-rules';
