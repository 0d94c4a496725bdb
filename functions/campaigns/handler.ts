import { campaignsAudit } from '../../shared/contracts/audit/campaigns';
import { campaigns } from '../../shared/contracts/campaigns';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { CAMPAIGNS_ENV, createCampaignsDeps } from './deps';
import { campaignHandlers } from './handlers/campaigns';

const env = readEnv(CAMPAIGNS_ENV);

export const handler = httpArea(campaigns, campaignHandlers, {
  audit: campaignsAudit,
  deps: () => createCampaignsDeps(env),
});
