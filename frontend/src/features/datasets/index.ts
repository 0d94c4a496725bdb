/** What other features may use of the datasets (docs/style.md §9, §17): a campaign's datasets. */
export { CampaignDatasets } from './campaign-datasets';
