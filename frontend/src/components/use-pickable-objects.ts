import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '../../../shared/contracts/common';
import type { ObjectKind } from '../../../shared/relations/relation-types';
import { routeQuery } from '../lib/query';
import type { PickableObject } from './object-picker';

const FIRST_PAGE = { query: { limit: MAX_PAGE_SIZE } };
const pickable = (page: { items: { id: string; name: string }[] }): PickableObject[] =>
  page.items.map((item) => ({ id: item.id, name: item.name || item.id }));

/**
 * Staff's choice of objects of one kind, by name (the first page of the platform's devices, organizations or
 * campaigns; anything further is given by id in the picker). Undefined for a kind no picker lists (people, invites).
 */
export const usePickableObjects = (kind: ObjectKind | undefined) => {
  const devices = useQuery({
    ...routeQuery('devices', 'listAll', FIRST_PAGE),
    enabled: kind === 'device',
    select: pickable,
  });
  const organizations = useQuery({
    ...routeQuery('organizations', 'listAll', FIRST_PAGE),
    enabled: kind === 'organization',
    select: pickable,
  });
  const campaigns = useQuery({
    ...routeQuery('campaigns', 'listAll', FIRST_PAGE),
    enabled: kind === 'campaign',
    select: pickable,
  });
  const query =
    kind === 'device' ? devices : kind === 'organization' ? organizations : kind === 'campaign' ? campaigns : undefined;
  return query && { options: query.data ?? [], loading: query.isPending, error: query.error };
};
