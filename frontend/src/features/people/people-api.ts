import { type QueryFunctionContext, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { GROUP_NAMES } from '../../../../shared/auth/groups';
import type { Group, IdentityUser, UserRecord } from '../../../../shared/contracts/users';
import { errorMessage } from '../../lib/error-message';
import { type CacheRead, GROUPS_CACHE_ERROR, type IdentityCacheState, identityCache } from '../../lib/identity-cache';
import { errorOf, routeKey, routeQuery } from '../../lib/query';

/**
 * The people screens' reads (docs/style.md §13), and the keys their changes invalidate. One's own record and the
 * group list come through the 7-day local cache (spec §8, §9, lib/identity-cache.ts): their queries sit
 * under the route's key with a 'local-cache' suffix, so what invalidates the route reads them again too,
 * past the local copy.
 */

/** A person's identity: names, e-mail, status, groups. */
export const identityQuery = (id: string) => routeQuery('users', 'getUser', { params: { id } });

/** The platform's record of a person: cart, roles, deletion queue. */
export const recordQuery = (id: string) => routeQuery('users', 'getUserRecord', { params: { id } });

/** A read of the local cache forced past its copy: the query was invalidated (a change made it out of date). */
const invalidated = ({ client, queryKey }: QueryFunctionContext) =>
  client.getQueryState(queryKey)?.isInvalidated ?? false;

/** The local cache decides when its copy is out of date; it answers at once or reports the spec's state. */
const localCacheOptions = {
  staleTime: Number.POSITIVE_INFINITY,
  refetchInterval: false,
  retry: false,
} as const;

/** One's own record through the local cache, with the state its read met (e.g. 'localUserCacheStale'). */
export const ownRecordQuery = (id: string) =>
  queryOptions({
    queryKey: [...recordQuery(id).queryKey, 'local-cache'],
    queryFn: (context): Promise<CacheRead<UserRecord>> => identityCache().user(id, { force: invalidated(context) }),
    ...localCacheOptions,
  });

/** Every group with its precedence, through the local cache. */
export const groupListQuery = queryOptions({
  queryKey: [...routeKey('users', 'listGroups', {}), 'local-cache'],
  queryFn: (context): Promise<CacheRead<Group[]>> => identityCache().groups({ force: invalidated(context) }),
  ...localCacheOptions,
});

/** The lists of /admin/people: everyone by e-mail, by name, by group. */
export const peopleListKeys: QueryKey[] = [
  routeKey('users', 'listUsers'),
  routeKey('users', 'filterUsersByFirstLast'),
  routeKey('users', 'listUsersInGroup'),
];

/** A change to a person's identity (names, e-mail, enabled, status): their identity and the people lists. */
export const identityChangeKeys = (id: string): QueryKey[] => [identityQuery(id).queryKey, ...peopleListKeys];

/** A change to a person's record (the deletion queue): the record, one's own local copy included. */
export const recordChangeKeys = (id: string): QueryKey[] => [recordQuery(id).queryKey];

/**
 * A change to a person's names or e-mail: the identity, the record (it mirrors the display name and the
 * e-mail) and the people lists.
 */
export const profileChangeKeys = (id: string): QueryKey[] => [...identityChangeKeys(id), ...recordChangeKeys(id)];

/**
 * A change to a person's groups: their identity (its groups), their record (its roles list), their groups,
 * the people lists (by group, too) and who is in which group.
 */
export const groupChangeKeys = (id: string): QueryKey[] => [
  ...profileChangeKeys(id),
  routeKey('users', 'listGroupsForUser', { params: { id } }),
  routeKey('users', 'usersByGroups'),
];

/** A person deleted: the people lists and who is in which group no longer hold them. */
export const personGoneKeys: QueryKey[] = [...peopleListKeys, routeKey('users', 'usersByGroups')];

export interface PersonState {
  /** The identity provider's view: names, e-mail, status, groups. */
  identity?: IdentityUser;
  /** The platform's record: cart, roles, deletion queue. */
  record?: UserRecord;
  loading: boolean;
  /** Why the identity could not be read (e.g. the API's 403 for another person's profile). */
  error?: string;
  /** Why the record could not be read; the identity may still show. */
  recordError?: string;
  /** One's own record comes through the local cache (spec §8, §9): the state its last read met. */
  recordState?: IdentityCacheState;
}

/**
 * One person's identity and record, read side by side. Each may fail on its own (a person without a record
 * yet still has an identity). One's own record (`self`) is read through the 7-day local cache.
 */
export const usePerson = (id: string, { self = false, enabled = true } = {}): PersonState => {
  const identity = useQuery({ ...identityQuery(id), enabled });
  const theirs = useQuery({ ...recordQuery(id), enabled: enabled && !self });
  const own = useQuery({ ...ownRecordQuery(id), enabled: enabled && self });
  const record = self ? own : theirs;
  return {
    identity: identity.data,
    record: self ? own.data?.value : theirs.data,
    loading: enabled && (identity.isPending || record.isPending),
    error: errorOf(identity),
    recordError: errorOf(record),
    recordState: self ? own.data?.state : undefined,
  };
};

export interface GroupList {
  /** Every group, highest role first; the built-in list until (or unless) the cached one arrives. */
  groups: Group[];
  /** 'Error fetching groups' when neither the cache nor the API had them. */
  error?: string;
  state?: IdentityCacheState;
}

const BUILT_IN: Group[] = GROUP_NAMES.map((GroupName, i) => ({ GroupName, Precedence: i + 1 }));

const groupListOf = (read: CacheRead<Group[]>): GroupList => ({
  groups: [...read.value].sort((a, b) => a.Precedence - b.Precedence),
  state: read.state,
  // A stale copy is still shown when a refresh failed; the spec's words say so.
  error: read.state === 'localGroupsCacheError' ? GROUPS_CACHE_ERROR : undefined,
});

/** The group list through the 7-day local cache (spec §8, §9), with the state its read met. */
export const useGroupList = (): GroupList => {
  const query = useQuery({ ...groupListQuery, select: groupListOf });
  if (query.data) return query.data;
  return { groups: BUILT_IN, error: query.error ? errorMessage(query.error) : undefined };
};
