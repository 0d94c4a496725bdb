import { useQuery } from '@tanstack/react-query';
import { routeKey, routeQuery } from '../../lib/query';

/** One campaign with its window and status. */
export const useCampaign = (id: string) => useQuery(routeQuery('campaigns', 'get', { params: { id } }));

/** The lists of campaigns, an organization's included: one added, changed or gone may show in any of them. */
export const campaignListKeys = [
  routeKey('campaigns', 'listMine'),
  routeKey('campaigns', 'listAll'),
  routeKey('campaigns', 'listByOrganization'),
];

/**
 * Every read that may show a campaign's record; its window also decides what its members see of its devices'
 * data (the sensor-data reads), so those are read again too.
 */
export const campaignShownKeys = (id: string) => [
  routeKey('campaigns', 'get', { params: { id } }),
  ...campaignListKeys,
  routeKey('campaigns', 'deviceAccess'),
];
