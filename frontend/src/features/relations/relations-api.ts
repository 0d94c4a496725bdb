import type { QueryKey } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Relation } from '../../../../shared/contracts/relations';
import { guardedReferrer, type RelationEnds } from '../../../../shared/relations/relation-rules';
import type { GuardedKind, RelationType } from '../../../../shared/relations/relation-types';
import { apiClient } from '../../lib/api';
import { type PagedList, routeKey, usePagedQuery } from '../../lib/query';
import { DEVICE_HOLDER_TYPE, type HolderKind, memberTypes } from './member-controls';
import { type BrowseFilter, browseLoader, browseRequest } from './relation-browse';
import type { PageLoader } from './relation-list';

/**
 * The relations screens' reads (docs/style.md §13): each paged list is keyed by its contract route and request (the
 * cursor aside), and a change names the keys of every list that may hold the relation it changed.
 */

export type PagedRelations = PagedList<Relation>;

/** A paged list of relations: its key and how it reads a page. */
export interface RelationList {
  key: QueryKey;
  load: PageLoader;
}

export const useRelationList = ({ key, load }: RelationList): PagedRelations => usePagedQuery(key, load);

const relations = () => apiClient('relations');

/** The relations of one type (or of every type) whose referrer, or referent, is `id`. */
const byEnd = (route: 'listByReferrerId' | 'listByReferentId', id: string, type?: RelationType): RelationList => {
  const request = { params: { id, x: DEFAULT_PAGE_SIZE }, query: type ? { type } : {} };
  return {
    key: routeKey('relations', route, request),
    load: (cursor) => relations()[route]({ ...request, query: { ...request.query, cursor } }),
  };
};

/**
 * Who belongs to an object, with their roles. A device's referrer relations are all memberships; an
 * organization's or campaign's also hold devices, and listByReferrerId filters on one type only, so their
 * members come through listByParameters.
 */
export const membersList = (kind: GuardedKind, objectId: string): RelationList => {
  if (kind === 'device') return byEnd('listByReferrerId', objectId);
  const body = {
    parameters: [{ typeName: 'referrer' as const, id: objectId, typeArray: memberTypes(kind) }],
    limit: DEFAULT_PAGE_SIZE,
  };
  return {
    key: routeKey('relations', 'listByParameters', { body }),
    load: (cursor) => relations().listByParameters({ body: { ...body, cursor } }),
  };
};

/** The devices an organization or campaign holds. */
export const devicesList = (kind: HolderKind, objectId: string): RelationList =>
  byEnd('listByReferrerId', objectId, DEVICE_HOLDER_TYPE[kind]);

/** The organizations, or campaigns, holding a device. */
export const holdersList = (holder: HolderKind, deviceId: string): RelationList =>
  byEnd('listByReferentId', deviceId, DEVICE_HOLDER_TYPE[holder]);

/** The admin browser's list for a filter (see browseRequest). */
export const browseList = (filter: BrowseFilter): RelationList => {
  const { route, request } = browseRequest(filter);
  return { key: ['relations', route, request], load: (cursor) => browseLoader(relations(), filter)(cursor) };
};

/**
 * The caller's roles on an object are the relations between the object and the caller, a handful at most
 * (one page): the request use-my-roles.ts reads.
 */
export const betweenRequest = (referrerId: string, referentId: string, typeArray: RelationType[], limit: number) => ({
  body: { parameters: [{ typeName: 'referrer' as const, id: referrerId, typeArray, otherId: referentId }], limit },
});

/** What the caller reads that carries their own access to an object: its page and their list of such objects. */
const ownAccessKeys = (kind: GuardedKind, id: string): QueryKey[] => {
  switch (kind) {
    case 'device':
      return [routeKey('devices', 'get', { params: { id } }), routeKey('devices', 'listMine')];
    case 'organization':
      return [routeKey('organizations', 'get', { params: { id } }), routeKey('organizations', 'listMine')];
    default:
      return [routeKey('campaigns', 'get', { params: { id } }), routeKey('campaigns', 'listMine')];
  }
};

/** The listByParameters reads whose (single) parameter is `part`. */
const byParameter = (part: {
  typeName: 'referrer' | 'referent';
  id: string;
  otherId: string | undefined;
}): QueryKey => ['relations', 'listByParameters', { body: { parameters: [part] } }];

/**
 * Every read a change to this relation touches, found by its ends. A key names a request in part, so
 * `{ params: { id } }` stands for every page size and type filter of that id's lists (a list of another type
 * on the same end is read again too: a key cannot say "no type filter, or this one"):
 * - every list by its referrer, or by its referent (the members, devices and holders panels, the dashboard's
 *   relations of a person, the admin browser filtered on either end); by listByParameters, the lists of one
 *   end's relations (e.g. the members of an organization or campaign): `otherId: undefined` in a key asks for
 *   a request without one, so the relations between that end and someone else are left alone;
 * - the relations between its two ends, among them the caller's roles on the object when the caller is the
 *   referent (use-my-roles.ts), and the admin browser filtered on both;
 * - the unfiltered admin browser;
 * - when the caller is the referent: their own access (the object's page, their list of such objects).
 */
export const relationChangeKeys = ({ type, referrerId, referentId }: RelationEnds, callerId: string): QueryKey[] => {
  const kind = guardedReferrer(type);
  return [
    ['relations', 'listByReferrerId', { params: { id: referrerId } }],
    ['relations', 'listByReferentId', { params: { id: referentId } }],
    byParameter({ typeName: 'referrer', id: referrerId, otherId: undefined }),
    byParameter({ typeName: 'referent', id: referentId, otherId: undefined }),
    byParameter({ typeName: 'referrer', id: referrerId, otherId: referentId }),
    byParameter({ typeName: 'referent', id: referentId, otherId: referrerId }),
    routeKey('relations', 'listPage'),
    ...(kind && referentId === callerId ? ownAccessKeys(kind, referrerId) : []),
  ];
};
