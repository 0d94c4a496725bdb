import type { campaigns } from '../../../shared/contracts/campaigns';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { CampaignsDeps } from '../deps';

export const campaignHandlers: AreaHandlers<typeof campaigns, CampaignsDeps> = {
  create: ({ caller, body }, { campaigns }) => campaigns.create(caller, body),
  listAll: ({ query }, { campaigns }) => campaigns.listAll(query),
  listMine: ({ caller, query }, { campaigns }) => campaigns.listMine(caller, query),
  listByOrganization: ({ caller, params, query }, { campaigns }) =>
    campaigns.listByOrganization(caller, params.id, query),
  get: ({ caller, params }, { campaigns }) => campaigns.get(caller, params.id),
  update: ({ caller, params, body, audit }, { campaigns }) => campaigns.update(caller, params.id, body, audit),
  delete: ({ caller, params, audit }, { campaigns }) => campaigns.remove(caller, params.id, audit),
  deviceAccess: ({ caller, params }, { campaigns }) => campaigns.deviceAccess(caller, params.id),
};
