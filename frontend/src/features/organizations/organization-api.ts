import { useQuery } from '@tanstack/react-query';
import { routeKey, routeQuery } from '../../lib/query';

/** One organization, its logo's URL included. */
export const useOrganization = (id: string) => useQuery(routeQuery('organizations', 'get', { params: { id } }));

/** The lists of organizations: one added, renamed or gone may show in any of them. */
export const organizationListKeys = [routeKey('organizations', 'listMine'), routeKey('organizations', 'listAll')];

/** Every read that may show an organization's record (name, logo): its page and the lists. */
export const organizationShownKeys = (id: string) => [
  routeKey('organizations', 'get', { params: { id } }),
  ...organizationListKeys,
];
