import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Relation } from '../../../../shared/contracts/relations';
import { type GuardedKind, type RelationType, typesWithReferrer } from '../../../../shared/relations/relation-types';
import { errorOf, routeQuery } from '../../lib/query';
import { betweenRequest } from './relations-api';

export interface MyRoles {
  /** The caller's relation types on the object; empty until known (so no control shows early). */
  roles: RelationType[];
  error?: string;
}

const NO_ROLES: RelationType[] = [];
const typesOf = (page: { items: Relation[] }) => page.items.map((relation) => relation.type);

/**
 * The caller's roles on one object: the relations between it and the caller (a handful at most, so one
 * page). Staff pass every rule without roles, so their roles are not fetched. A change to the caller's own
 * relation on the object invalidates this read (relationChangeKeys); the roles are kept while it runs, so
 * controls do not flicker.
 */
export const useMyRoles = (kind: GuardedKind, objectId: string, callerId: string, staff: boolean): MyRoles => {
  const query = useQuery({
    ...routeQuery(
      'relations',
      'listByParameters',
      betweenRequest(objectId, callerId, typesWithReferrer(kind), MAX_PAGE_SIZE),
    ),
    select: typesOf,
    enabled: !staff && callerId !== '' && objectId !== '',
  });
  return { roles: query.data ?? NO_ROLES, error: errorOf(query) };
};
