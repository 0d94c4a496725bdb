import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { isRelationType, RELATION_TYPES, type RelationType } from '../../../../shared/relations/relation-types';
import type { ApiClient } from '../../lib/api';
import type { PageLoader } from './relation-list';

/** What the admin relations browser lists; it lives in the address so a filtered view can be linked. */
export interface BrowseFilter {
  type?: RelationType;
  referrerId?: string;
  referentId?: string;
}

/** Reads the filter from the query string; an unknown type or a blank id filters on nothing. */
export const filterFromSearch = (search: URLSearchParams): BrowseFilter => {
  const type = search.get('type') ?? '';
  const referrerId = search.get('referrer')?.trim();
  const referentId = search.get('referent')?.trim();
  return {
    ...(isRelationType(type) ? { type } : {}),
    ...(referrerId ? { referrerId } : {}),
    ...(referentId ? { referentId } : {}),
  };
};

export const searchFromFilter = ({ type, referrerId, referentId }: BrowseFilter): Record<string, string> => ({
  ...(type ? { type } : {}),
  ...(referrerId ? { referrer: referrerId } : {}),
  ...(referentId ? { referent: referentId } : {}),
});

type RelationsClient = Pick<
  ApiClient<'relations'>,
  'listPage' | 'listByReferrerId' | 'listByReferentId' | 'listByParameters'
>;

/**
 * The query behind a filter, always on a key or index: both ids → the relations between them
 * (listByParameters with otherId); one id → by referrer or by referent; none → every relation.
 */
export const browseLoader = (
  relations: RelationsClient,
  { type, referrerId, referentId }: BrowseFilter,
  pageSize = DEFAULT_PAGE_SIZE,
): PageLoader => {
  if (referrerId && referentId) {
    const typeArray = type ? [type] : [...RELATION_TYPES];
    return (cursor) =>
      relations.listByParameters({
        body: {
          parameters: [{ typeName: 'referrer', id: referrerId, otherId: referentId, typeArray }],
          limit: pageSize,
          cursor,
        },
      });
  }
  if (referrerId) {
    return (cursor) => relations.listByReferrerId({ params: { id: referrerId, x: pageSize }, query: { type, cursor } });
  }
  if (referentId) {
    return (cursor) => relations.listByReferentId({ params: { id: referentId, x: pageSize }, query: { type, cursor } });
  }
  return (cursor) => relations.listPage({ params: { x: pageSize }, query: { type, cursor } });
};
