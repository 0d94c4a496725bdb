import type { Caller } from '../../../shared/auth/verify-token';
import { campaignStatus, windowProblem } from '../../../shared/campaigns/campaign-rules';
import { type Campaign, CampaignRole, type DeviceAccess, type MyCampaign } from '../../../shared/contracts/campaigns';
import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import { type RelationType, relationId } from '../../../shared/relations/relation-types';
import type { Access } from '../../_shared/access/access';
import type { AccessVersionStore } from '../../_shared/access/access-version-store';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import { cursorPage, type PageSource, pageAcross } from '../../_shared/paging';
import type { RelationEffects } from '../../_shared/relations/relation-effects';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { CampaignRecord, CampaignStore, OrganizationReader } from './ports';

/**
 * A campaign's members, in the order "my campaigns" lists them (a campaign appears under the first held): the
 * contract's campaign roles, which `GET /campaigns/mine?role=` takes.
 */
export const MEMBER_TYPES: readonly CampaignRole[] = CampaignRole.options;
/** Everything that hangs off a campaign and goes with it when it is deleted. */
const CAMPAIGN_RELATIONS: readonly RelationType[] = [...MEMBER_TYPES, 'campaign-device'];

export interface CampaignDeps {
  log: Log;
  store: Pick<CampaignStore, 'get' | 'getMany' | 'create' | 'replace' | 'remove' | 'listAll' | 'listByOrganization'>;
  organizations: OrganizationReader;
  relations: Pick<RelationTable, 'create' | 'remove' | 'getMany' | 'queryAll' | 'queryIndex'>;
  effects: RelationEffects;
  versions: Pick<AccessVersionStore, 'bump'>;
  access: Access;
  now: () => number;
  newId: () => string;
}

export interface NewCampaign {
  name: string;
  description: string;
  startsAt: number;
  endsAt: number;
  organizationId?: string;
}

export interface CampaignChanges {
  name?: string;
  description?: string;
  startsAt?: number;
  endsAt?: number;
  /** `null` unlinks. */
  organizationId?: string | null;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The campaigns use cases (docs/campaigns.md). Who may see or change a campaign: the access module. */
export const createCampaigns = (deps: CampaignDeps) => {
  const { store, organizations, relations, effects, versions, access, now, newId, log } = deps;

  const view = (record: CampaignRecord): Campaign => ({ ...record, status: campaignStatus(record, now()) });

  /** Linking needs manage on the organization (staff pass), and the organization must exist. */
  const mayLink = async (caller: Caller, organizationId: string) => {
    const decision = await access.forCaller(caller).check('organization', organizationId, { need: 'manage' });
    if (!decision.allowed) throw new Forbidden(MESSAGES.campaignOrganizationManagerRequired);
    if (!(await organizations.exists(organizationId))) {
      throw new NotFound(MESSAGES.campaignOrganizationNotFound(organizationId));
    }
  };

  const load = async (id: string): Promise<CampaignRecord> => {
    const record = await store.get(id);
    if (!record) throw new NotFound(MESSAGES.campaignNotFound(id));
    return record;
  };

  /** Everyone who belongs to the campaign: their cached decisions carry its window. */
  const memberIds = async (id: string) =>
    (await relations.queryAll('referrer', id, MEMBER_TYPES)).map((relation) => relation.referentId);

  const pageOf = async (source: PageSource<CampaignRecord>, request: PageRequest) => {
    const page = await cursorPage(source, request);
    return { ...page, items: page.items.map(view) };
  };

  return {
    create: async (caller: Caller, input: NewCampaign): Promise<Campaign> => {
      if (input.organizationId !== undefined) await mayLink(caller, input.organizationId);
      const time = now();
      const record: CampaignRecord = {
        id: newId(),
        name: input.name,
        description: input.description,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        ...(input.organizationId !== undefined ? { organizationId: input.organizationId } : {}),
        created: time,
        createdBy: caller.sub,
        updated: time,
      };
      if (!(await store.create(record))) throw new Conflict(MESSAGES.campaignChanged);
      const manager: Relation = {
        id: relationId('campaign-manager', record.id, caller.sub),
        type: 'campaign-manager',
        referrerId: record.id,
        referentId: caller.sub,
        created: time,
        createdBy: caller.sub,
      };
      try {
        await relations.create(manager);
        await effects.bump([manager]);
      } catch (error) {
        // No transactions: a campaign nobody manages is taken back whole.
        log('error', 'Campaign creation undone', { id: record.id, error: message(error) });
        await relations.remove(manager.id);
        await store.remove(record.id);
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      await effects.publish([{ change: 'added', relation: manager }], caller.sub);
      return view(record);
    },

    listAll: (request: PageRequest) => pageOf((startKey, limit) => store.listAll({ limit, startKey }), request),

    listByOrganization: async (caller: Caller, organizationId: string, request: PageRequest) => {
      await access.forCaller(caller).require('organization', organizationId);
      return pageOf((startKey, limit) => store.listByOrganization(organizationId, { limit, startKey }), request);
    },

    /**
     * The caller's campaigns: their member relations, one type after another, then the records. A campaign
     * where the caller holds two roles is listed once, under the first in MEMBER_TYPES; so a page may hold
     * fewer than `limit` items while a next cursor remains. Relations to a campaign without a record are
     * left out. With `role`, only the relations of that type are read, and each of their campaigns is listed.
     */
    listMine: async (
      caller: Caller,
      request: PageRequest & { role?: CampaignRole },
    ): Promise<{ items: MyCampaign[]; nextCursor?: string }> => {
      const types = request.role ? [request.role] : MEMBER_TYPES;
      const page = await pageAcross<Relation>(
        types.map(
          (type) => (startKey: Record<string, unknown> | undefined, limit: number) =>
            relations
              .queryIndex('referent', caller.sub, { type, limit, startKey })
              .then(({ items, lastKey }) => ({ items, lastKey })),
        ),
        request,
      );
      const campaignIds = [...new Set(page.items.map((relation) => relation.referrerId))];
      const [held, records] = await Promise.all([
        relations.getMany(campaignIds.flatMap((c) => MEMBER_TYPES.map((type) => relationId(type, c, caller.sub)))),
        store.getMany(campaignIds),
      ]);
      const rolesOf = (c: string) =>
        MEMBER_TYPES.filter((type) => held.some((r) => r.type === type && r.referrerId === c));
      const byId = new Map(records.map((record) => [record.id, record]));
      const items = page.items
        .filter(
          (relation) =>
            (request.role || rolesOf(relation.referrerId)[0] === relation.type) && byId.has(relation.referrerId),
        )
        .map((relation) => ({ ...view(byId.get(relation.referrerId)!), roles: rolesOf(relation.referrerId) }));
      return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },

    get: async (caller: Caller, id: string): Promise<Campaign> => {
      await access.forCaller(caller).require('campaign', id);
      return view(await load(id));
    },

    update: async (
      caller: Caller,
      id: string,
      changes: CampaignChanges,
      audit: AuditNote = NO_AUDIT,
    ): Promise<Campaign> => {
      await access.forCaller(caller).require('campaign', id, { need: 'manage' });
      const old = await load(id);
      audit.label(old.name);
      audit.before(old);
      const { organizationId, ...fields } = changes;
      const next: CampaignRecord = {
        ...old,
        ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
      };
      if (organizationId === null) delete next.organizationId;
      else if (organizationId !== undefined) next.organizationId = organizationId;
      const problem = windowProblem(next);
      if (problem)
        throw new BadRequest(`Invalid body: endsAt: ${problem}`, [{ path: 'body.endsAt', message: problem }]);
      if (next.organizationId !== undefined && next.organizationId !== old.organizationId) {
        await mayLink(caller, next.organizationId);
      }
      next.updated = Math.max(now(), old.updated + 1);
      if (!(await store.replace(next, old.updated))) throw new Conflict(MESSAGES.campaignChanged);
      if (next.startsAt !== old.startsAt || next.endsAt !== old.endsAt) {
        // Decisions reached through this campaign carry its window: its members' cached ones must go.
        try {
          await versions.bump(await memberIds(id), now());
        } catch (error) {
          log('error', 'Campaign window change undone', { id, error: message(error) });
          await store.replace(old, next.updated);
          throw new ServiceUnavailable(MESSAGES.changeUndone);
        }
      }
      return view(next);
    },

    /** Its relations go first (members and devices, each bump and event as the relations area does), then the record. */
    remove: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      await access.forCaller(caller).require('campaign', id, { need: 'manage' });
      const [record, held] = await Promise.all([store.get(id), relations.queryAll('referrer', id, CAMPAIGN_RELATIONS)]);
      if (!record && held.length === 0) throw new NotFound(MESSAGES.campaignNotFound(id));
      audit.label(record?.name);
      audit.before(record ? { ...record, relations: held.length } : { id, relations: held.length });
      const removed: Relation[] = [];
      for (const relation of held) {
        const gone = await relations.remove(relation.id);
        if (gone) removed.push(gone);
      }
      // A campaign-device relation has no user at either end: the members it reached are bumped with their own.
      await effects.bump(removed);
      await effects.publish(
        removed.map((relation) => ({ change: 'removed' as const, relation })),
        caller.sub,
      );
      if (record) await store.remove(id);
    },

    /** The caller's access to a device, with the data windows it carries (docs/campaigns.md). */
    deviceAccess: async (caller: Caller, deviceId: string): Promise<DeviceAccess> => {
      const decision = await access.forCaller(caller).require('device', deviceId);
      if (decision.windows === undefined) {
        return { deviceId, via: decision.via ?? 'direct', windows: null, campaignIds: [] };
      }
      return { deviceId, via: 'campaign', windows: decision.windows, campaignIds: decision.campaignIds ?? [] };
    },
  };
};

export type Campaigns = ReturnType<typeof createCampaigns>;
