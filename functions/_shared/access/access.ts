import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { mergeWindows, type Window } from '../../../shared/campaigns/window';
import { MESSAGES } from '../../../shared/messages';
import {
  type AccessNeed,
  CAMPAIGN_DEVICE_GRANTS,
  DEVICE_ROUTES,
  type DeviceRoute,
  DIRECT_GRANTS,
  grants,
} from '../../../shared/relations/relation-rules';
import { type GuardedKind, relationId } from '../../../shared/relations/relation-types';
import { Forbidden, Unauthorized } from '../errors';
import { type KeyRead, NOTHING_AHEAD, type ReadAhead } from '../read-ahead';
import type { RelationTable } from '../relations/relation-table';
import type { AccessCache, AccessDecision } from './access-cache';
import type { AccessVersion } from './access-version-store';

export interface AccessOptions {
  /** @default 'view' */
  need?: AccessNeed;
  /** Devices only: the routes that may grant access. @default all (the organization route always denies) */
  routes?: readonly DeviceRoute[];
}

export interface AccessDeps {
  relations: Pick<RelationTable, 'getMany' | 'queryAll' | 'keyRead'>;
  versions: { get: (userId: string) => Promise<AccessVersion> };
  cache: AccessCache;
  /**
   * The windows of campaigns, read consistently from the campaigns table: a decision reached through the
   * campaign path carries them. A campaign without a record (or without a window) contributes none, so its
   * members see the device but none of its data.
   */
  campaigns: CampaignWindows;
  now: () => number;
  /**
   * DynamoDB index reads may lag a write by up to about a second. A decision computed this soon after the
   * user's last relation change is used but not cached, so a lagging index read cannot outlive the lag.
   * @default ACCESS_SETTLE_MS
   */
  settleMs?: number;
}

/** How long after a relation change a decision is not cached, where DynamoDB's indexes may lag (AccessDeps.settleMs). */
export const ACCESS_SETTLE_MS = 5_000;

/** Reads campaigns' data windows by id; ids without a record are left out of the answer. */
export interface CampaignWindows {
  windows: (campaignIds: readonly string[]) => Promise<Map<string, Window>>;
}

const DENIED: AccessDecision = { allowed: false };
const STAFF: AccessDecision = { allowed: true, via: 'staff' };

/**
 * The one access module (spec §6), used by every area: may this caller see, manage or own this device,
 * organization or campaign? Staff may do all. Decisions are cached per user and options and trusted only
 * while the user's access version is unchanged; the version is read once per request (consistently), so a
 * granted or revoked relation takes effect on the next request in every Lambda instance.
 */
export const createAccess = ({
  relations,
  versions,
  cache,
  campaigns,
  now,
  settleMs = ACCESS_SETTLE_MS,
}: AccessDeps) => {
  const directIds = (kind: GuardedKind, id: string, userId: string, need: AccessNeed) =>
    DIRECT_GRANTS[kind][need].map((type) => relationId(type, id, userId));

  /** The caller's own relation to the object, read by id (consistent), or taken from what was read ahead. */
  const direct = async (kind: GuardedKind, id: string, userId: string, need: AccessNeed, ahead?: ReadAhead) => {
    const held = await relations.getMany(directIds(kind, id, userId, need), ahead);
    const type = grants(
      kind,
      need,
      held.map((relation) => relation.type),
    );
    return type ? { allowed: true, via: type } : undefined;
  };

  /**
   * Campaigns the user belongs to (as user or manager) that hold the device: found by index, confirmed by id.
   * Every such campaign counts, so the decision carries the union of their data windows (spec §6; issue 5:
   * "a campaign's views of data are limited to its window").
   */
  const throughCampaign = async (deviceId: string, userId: string): Promise<AccessDecision | undefined> => {
    const holds = await relations.queryAll('referent', deviceId, ['campaign-device']);
    if (holds.length === 0) return undefined;
    const candidates = [...new Set(holds.map((hold) => hold.referrerId))];
    const found = new Set(
      (
        await relations.getMany(
          candidates.flatMap((campaignId) => [
            relationId('campaign-device', campaignId, deviceId),
            ...CAMPAIGN_DEVICE_GRANTS.map((type) => relationId(type, campaignId, userId)),
          ]),
        )
      ).map((relation) => relation.id),
    );
    const granting = candidates
      .filter(
        (c) =>
          found.has(relationId('campaign-device', c, deviceId)) &&
          CAMPAIGN_DEVICE_GRANTS.some((type) => found.has(relationId(type, c, userId))),
      )
      .sort();
    if (granting.length === 0) return undefined;
    const windows = await campaigns.windows(granting);
    return {
      allowed: true,
      via: `campaign-user:${granting[0]}`,
      campaignIds: granting,
      windows: mergeWindows(granting.flatMap((c) => windows.get(c) ?? [])),
    };
  };

  const compute = async (
    kind: GuardedKind,
    id: string,
    userId: string,
    need: AccessNeed,
    routes: readonly DeviceRoute[],
    ahead: ReadAhead,
  ): Promise<AccessDecision> => {
    if (kind !== 'device') return (await direct(kind, id, userId, need, ahead)) ?? DENIED;
    if (routes.includes('direct')) {
      const decision = await direct(kind, id, userId, need, ahead);
      if (decision) return decision;
    }
    // Spec §6: through a campaign a user sees a device; they never manage or own it that way.
    if (routes.includes('campaign') && need === 'view') {
      const decision = await throughCampaign(id, userId);
      if (decision) return decision;
    }
    // Spec §6: the organization route always denies; an organization's members do not reach its devices.
    return DENIED;
  };

  /** What a decision is cached under: the user, the object and the options. */
  const cacheKey = (userId: string, kind: GuardedKind, id: string, options: AccessOptions) => {
    const need = options.need ?? 'view';
    const routes: readonly DeviceRoute[] = kind === 'device' ? (options.routes ?? DEVICE_ROUTES) : ['direct'];
    return { need, routes, key: [userId, kind, id, need, [...routes].sort().join(',')].join('|') };
  };

  return {
    /**
     * The keys of the caller's own relations to the object, when no decision about it is cached: read ahead of the
     * request (the HTTP chain reads them with the session record), they spare a cache miss its own round trip. None
     * for a guest, for staff (as the token says), or when a decision is cached, whose version the session decides.
     */
    readAhead: (
      caller: Pick<Caller, 'sub' | 'groups'> | undefined,
      kind: GuardedKind,
      id: string,
      options: AccessOptions = {},
    ): KeyRead[] => {
      if (!caller || isStaff(caller.groups)) return [];
      const { need, routes, key } = cacheKey(caller.sub, kind, id, options);
      if (!routes.includes('direct') || cache.holds(key)) return [];
      return directIds(kind, id, caller.sub, need).map((relation) => relations.keyRead(relation));
    },

    /** Access checks for one request's caller; the caller's access version is read at most once. */
    forCaller: (caller: Caller | undefined) => {
      let version: Promise<AccessVersion> | undefined;

      /** `ahead`: relations this request read ahead (readAhead), used instead of reading them again on a miss. */
      const check = async (
        kind: GuardedKind,
        id: string,
        options: AccessOptions = {},
        ahead: ReadAhead = NOTHING_AHEAD,
      ): Promise<AccessDecision> => {
        if (!caller) return DENIED;
        if (isStaff(caller.groups)) return STAFF;
        const { need, routes, key } = cacheKey(caller.sub, kind, id, options);
        version ??= caller.accessVersion ? Promise.resolve(caller.accessVersion) : versions.get(caller.sub);
        const current = await version;
        const cached = cache.get(key, current.version);
        if (cached) return cached;
        const decision = await compute(kind, id, caller.sub, need, routes, ahead);
        if (now() - current.changedAt >= settleMs) cache.set(key, current.version, decision);
        return decision;
      };

      return {
        check,
        /** Throws 401 for a guest and 403 for a caller without the access. */
        require: async (kind: GuardedKind, id: string, options?: AccessOptions): Promise<AccessDecision> => {
          const decision = await check(kind, id, options);
          if (decision.allowed) return decision;
          if (!caller) throw new Unauthorized();
          throw new Forbidden(MESSAGES.accessDenied(kind));
        },
      };
    },
  };
};

export type Access = ReturnType<typeof createAccess>;
export type CallerAccess = ReturnType<Access['forCaller']>;

/**
 * One kind of object's yes-or-no check, for a use case that takes it as a port (`mayReach(caller, deviceId, need)`):
 * `need` is the one given at the call, else `defaultNeed`. What a wiring file passes instead of writing the call.
 */
export const accessCheckOf =
  (access: Pick<Access, 'forCaller'>, kind: GuardedKind, defaultNeed: AccessNeed = 'view') =>
  async (caller: Caller, id: string, need: AccessNeed = defaultNeed): Promise<boolean> =>
    (await access.forCaller(caller).check(kind, id, { need })).allowed;
