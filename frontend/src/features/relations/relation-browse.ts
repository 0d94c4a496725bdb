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

/** The route and request (its cursor aside) behind a filter: what the list is keyed by, and what it asks. */
export type BrowseRequest =
  | { route: 'listPage'; request: { params: { x: number }; query: { type?: RelationType } } }
  | {
      route: 'listByReferrerId' | 'listByReferentId';
      request: { params: { id: string; x: number }; query: { type?: RelationType } };
    }
  | {
      route: 'listByParameters';
      request: {
        body: {
          parameters: { typeName: 'referrer'; id: string; otherId: string; typeArray: RelationType[] }[];
          limit: number;
        };
      };
    };

/**
 * The query behind a filter, always on a key or index: both ids → the relations between them
 * (listByParameters with otherId); one id → by referrer or by referent; none → every relation.
 */
export const browseRequest = (
  { type, referrerId, referentId }: BrowseFilter,
  pageSize = DEFAULT_PAGE_SIZE,
): BrowseRequest => {
  if (referrerId && referentId) {
    const typeArray = type ? [type] : [...RELATION_TYPES];
    return {
      route: 'listByParameters',
      request: {
        body: {
          parameters: [{ typeName: 'referrer', id: referrerId, otherId: referentId, typeArray }],
          limit: pageSize,
        },
      },
    };
  }
  if (referrerId)
    return { route: 'listByReferrerId', request: { params: { id: referrerId, x: pageSize }, query: { type } } };
  if (referentId)
    return { route: 'listByReferentId', request: { params: { id: referentId, x: pageSize }, query: { type } } };
  return { route: 'listPage', request: { params: { x: pageSize }, query: { type } } };
};

/** Fetches the pages of a filter's query (see browseRequest). */
export const browseLoader = (
  relations: RelationsClient,
  filter: BrowseFilter,
  pageSize = DEFAULT_PAGE_SIZE,
): PageLoader => {
  const browse = browseRequest(filter, pageSize);
  switch (browse.route) {
    case 'listByParameters':
      return (cursor) => relations.listByParameters({ body: { ...browse.request.body, cursor } });
    case 'listPage':
      return (cursor) => relations.listPage({ ...browse.request, query: { ...browse.request.query, cursor } });
    default:
      return (cursor) => relations[browse.route]({ ...browse.request, query: { ...browse.request.query, cursor } });
  }
};
