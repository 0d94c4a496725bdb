/** What other features may use of the datasets (STYLE §16, §17): a campaign's datasets. */
export { CampaignDatasets } from './campaign-datasets';
