import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { RelationQuery } from '../../../shared/contracts/relations';
import type { Relation } from '../../../shared/contracts/shapes';
import { MESSAGES } from '../../../shared/messages';
import {
  type ChangeFacts,
  DIRECT_GRANTS,
  guardedReferrer,
  isRoleChange,
  LAST_MANAGER_GUARD,
  mayChangeType,
  mayCreate,
  mayDelete,
  type RelationEnds,
} from '../../../shared/relations/relation-rules';
import {
  type ObjectKind,
  parseRelationId,
  RELATION_TYPE_INFO,
  RELATION_TYPES,
  type RelationType,
  relationId,
} from '../../../shared/relations/relation-types';
import type { Access } from '../../_shared/access/access';
import type { AccessVersionStore } from '../../_shared/access/access-version-store';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { EventPublisher } from '../../_shared/events/event-publisher';
import type { Log } from '../../_shared/logger';
import { type PageSource, pageAcross } from '../../_shared/paging';
import { eventsFor, type RelationChange } from '../../_shared/relations/relation-effects';
import { affectedUsersOf, createRelationMigration } from '../../_shared/relations/relation-migration';
import type { RelationSide, RelationTable } from '../../_shared/relations/relation-table';

export interface RelationDeps {
  log: Log;
  table: RelationTable;
  access: Access;
  versions: Pick<AccessVersionStore, 'bump'>;
  events: Pick<EventPublisher, 'publish'>;
  now: () => number;
  newId: () => string;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

type Change = RelationChange;

/** The relation's two ids and type, from its id (validated by the contract). */
const endsOf = (id: string): RelationEnds => {
  const ends = parseRelationId(id);
  if (!ends) throw new BadRequest('Relation id must be "type#referrerId#referentId"');
  return ends;
};

/** The relations use cases. Who may do what: docs/relations.md and shared/relations/relation-rules.ts. */
export const createRelations = ({ table, access, versions, events, now, newId, log }: RelationDeps) => {
  /** What the caller holds on the objects one change touches, read by id (consistent). */
  const factsFor = async (caller: Caller, { type, referrerId, referentId }: RelationEnds): Promise<ChangeFacts> => {
    const facts = { callerId: caller.sub, staff: isStaff(caller.groups), onReferrer: [], onReferent: [] };
    if (facts.staff) return facts;
    const referrerKind = guardedReferrer(type);
    const ids = [
      ...(referrerKind ? DIRECT_GRANTS[referrerKind].view.map((t) => relationId(t, referrerId, caller.sub)) : []),
      ...(RELATION_TYPE_INFO[type].referent === 'device'
        ? DIRECT_GRANTS.device.view.map((t) => relationId(t, referentId, caller.sub))
        : []),
    ];
    const held = ids.length ? await table.getMany(ids) : [];
    return {
      ...facts,
      onReferrer: held.filter((r) => r.referrerId === referrerId).map((r) => r.type),
      onReferent: held.filter((r) => r.referrerId === referentId).map((r) => r.type),
    };
  };

  /**
   * May the caller read the relations at an id, taken as one of these kinds of object? One reader per
   * request, so the caller's access version is read once however many ids it is asked about.
   */
  const readerOf = (caller: Caller) => {
    const checks = access.forCaller(caller);
    return async (id: string, kinds: readonly ObjectKind[]): Promise<boolean> => {
      if (isStaff(caller.groups)) return true;
      if (kinds.includes('user') && id === caller.sub) return true;
      for (const kind of kinds) {
        if (kind !== 'device' && kind !== 'organization' && kind !== 'campaign') continue;
        if ((await checks.check(kind, id)).allowed) return true;
      }
      return false;
    };
  };

  const kindsAt = (side: RelationSide, types: readonly RelationType[]): ObjectKind[] => [
    ...new Set(types.map((type) => RELATION_TYPE_INFO[type][side])),
  ];

  const affectedUsers = affectedUsersOf(table);

  /**
   * After a write: invalidate the affected users' cached access, then send the events people are notified
   * of. If either fails, the write is undone and the client told to retry: a change is never left without
   * its event (no DynamoDB transactions, so this is the compensation).
   */
  const settle = async (caller: Caller, changes: Change[], undo: () => Promise<void>): Promise<void> => {
    let users: string[] = [];
    const notified = eventsFor(changes, caller.sub, { now, newId });
    try {
      users = (await Promise.all(changes.map((c) => affectedUsers(c.relation)))).flat();
      await versions.bump(users, now());
      if (notified.length) await events.publish(notified);
    } catch (error) {
      log('error', 'Relation change undone', {
        changes: changes.map((c) => `${c.change} ${c.relation.id}`),
        error: error instanceof Error ? error.message : String(error),
      });
      await undo();
      // Best effort: if the versions table is what failed, the cache's time ceiling bounds a stale decision.
      await versions.bump(users, now()).catch((bumpError: unknown) =>
        log('error', 'Access versions not raised after an undo', {
          users,
          error: bumpError instanceof Error ? bumpError.message : String(bumpError),
        }),
      );
      throw new ServiceUnavailable(MESSAGES.relationChangeUndone);
    }
  };

  /** An organization or campaign keeps at least one manager (staff may still remove the last). */
  const guardLastManager = async (caller: Caller, relation: Relation) => {
    const kind = LAST_MANAGER_GUARD[relation.type];
    if (!kind || isStaff(caller.groups)) return;
    const managers = await table.queryIndex('referrer', relation.referrerId, { type: relation.type, limit: 2 });
    if (!managers.items.some((m) => m.id !== relation.id)) throw new Conflict(MESSAGES.relationLastManager(kind));
  };

  const pageOf =
    (side: RelationSide, id: string, type?: RelationType, otherId?: string): PageSource<Relation> =>
    (startKey, limit) =>
      table.queryIndex(side, id, { type, otherId, limit, startKey });

  return {
    listTypes: () => RELATION_TYPES.map((type) => RELATION_TYPE_INFO[type]),

    create: async (caller: Caller, input: RelationEnds): Promise<Relation> => {
      if (input.referrerId === input.referentId) throw new BadRequest(MESSAGES.relationSameEnds);
      const decision = mayCreate(input, await factsFor(caller, input));
      if (!decision.allowed) throw new Forbidden(decision.reason);
      const id = relationId(input.type, input.referrerId, input.referentId);
      // One role per family between two objects: a second role is a role change (PUT /update).
      const siblings = RELATION_TYPE_INFO[input.type].family.filter((type) => type !== input.type);
      const held = siblings.length
        ? await table.getMany(siblings.map((type) => relationId(type, input.referrerId, input.referentId)))
        : [];
      if (held[0]) throw new Conflict(MESSAGES.relationRoleExists(held[0].type));
      if (input.type === 'device-owner') {
        const owners = await table.queryIndex('referrer', input.referrerId, { type: 'device-owner', limit: 2 });
        if (owners.items.some((o) => o.referentId !== input.referentId)) {
          throw new Conflict(MESSAGES.relationOwnerExists);
        }
      }
      const relation: Relation = { id, ...input, created: now(), createdBy: caller.sub };
      if (!(await table.create(relation))) throw new Conflict(MESSAGES.relationExists(id));
      await settle(caller, [{ change: 'added', relation }], async () => {
        await table.remove(id);
      });
      return relation;
    },

    /** Staff: every relation, a type at a time, newest first within a type. */
    list: ({ type, ...page }: PageRequest & { type?: RelationType }) =>
      pageAcross(
        (type ? [type] : RELATION_TYPES).map(
          (t): PageSource<Relation> =>
            (startKey, limit) =>
              table.listByType(t, { limit, startKey }),
        ),
        page,
      ),

    listBy: async (
      caller: Caller,
      side: RelationSide,
      id: string,
      { type, ...page }: PageRequest & { type?: RelationType },
    ) => {
      if (!(await readerOf(caller)(id, kindsAt(side, type ? [type] : RELATION_TYPES)))) {
        throw new Forbidden(MESSAGES.relationReadDenied);
      }
      return pageAcross([pageOf(side, id, type)], page);
    },

    listByParameters: async (
      caller: Caller,
      { parameters, ...page }: PageRequest & { parameters: RelationQuery[] },
    ) => {
      const mayRead = readerOf(caller);
      for (const p of parameters) {
        if (!(await mayRead(p.id, kindsAt(p.typeName, p.typeArray)))) {
          throw new Forbidden(MESSAGES.relationReadDenied);
        }
      }
      const queries = [
        ...new Map(
          parameters.flatMap((p) =>
            p.typeArray.map((type) => {
              const query = { side: p.typeName, id: p.id, type, otherId: p.otherId };
              return [JSON.stringify(query), query] as const;
            }),
          ),
        ).values(),
      ];
      const other = { referrer: 'referentId', referent: 'referrerId' } as const;
      const matches = (relation: Relation, q: (typeof queries)[number]) =>
        relation.type === q.type &&
        relation[`${q.side}Id`] === q.id &&
        (q.otherId === undefined || relation[other[q.side]] === q.otherId);
      return pageAcross(
        queries.map((q) => pageOf(q.side, q.id, q.type, q.otherId)),
        page,
        (relation, index) => queries.slice(0, index).some((q) => matches(relation, q)),
      );
    },

    get: async (caller: Caller, id: string): Promise<Relation> => {
      const { type, referrerId, referentId } = endsOf(id);
      const info = RELATION_TYPE_INFO[type];
      const mayRead = readerOf(caller);
      const visible =
        referrerId === caller.sub ||
        referentId === caller.sub ||
        (await mayRead(referrerId, [info.referrer])) ||
        (await mayRead(referentId, [info.referent]));
      if (!visible) throw new Forbidden(MESSAGES.relationReadDenied);
      const relation = await table.get(id);
      if (!relation) throw new NotFound(MESSAGES.relationNotFound(id));
      return relation;
    },

    changeType: async (
      caller: Caller,
      id: string,
      to: RelationType,
      audit: AuditNote = NO_AUDIT,
    ): Promise<Relation> => {
      const ends = endsOf(id);
      if (!isRoleChange(ends.type, to)) throw new BadRequest(MESSAGES.relationNotInFamily(ends.type, to));
      const decision = mayChangeType(ends, to, await factsFor(caller, ends));
      if (!decision.allowed) throw new Forbidden(decision.reason);
      const old = await table.get(id);
      if (!old) throw new NotFound(MESSAGES.relationNotFound(id));
      audit.before(old);
      await guardLastManager(caller, old);
      const next: Relation = {
        id: relationId(to, ends.referrerId, ends.referentId),
        type: to,
        referrerId: ends.referrerId,
        referentId: ends.referentId,
        created: now(),
        createdBy: caller.sub,
      };
      // Exists already only when an earlier attempt of this change stopped half-way: finish it.
      const createdNow = await table.create(next);
      const result = createdNow ? next : ((await table.get(next.id)) ?? next);
      await table.remove(old.id);
      await settle(
        caller,
        [{ change: 'removed', relation: old }, ...(createdNow ? [{ change: 'added' as const, relation: next }] : [])],
        async () => {
          await table.put(old);
          if (createdNow) await table.remove(next.id);
        },
      );
      return result;
    },

    remove: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      const ends = endsOf(id);
      const decision = mayDelete(ends, await factsFor(caller, ends));
      if (!decision.allowed) throw new Forbidden(decision.reason);
      const existing = await table.get(id);
      if (!existing) throw new NotFound(MESSAGES.relationNotFound(id));
      audit.before(existing);
      await guardLastManager(caller, existing);
      const removed = await table.remove(id);
      if (!removed) throw new NotFound(MESSAGES.relationNotFound(id));
      await settle(caller, [{ change: 'removed', relation: removed }], () => table.put(removed));
    },

    /**
     * One page of the table brought to the current shape (functions/_shared/relations/relation-migration.ts): also the
     * migrate area's step, which runs it at deploy.
     */
    migrate: createRelationMigration({ table, versions, now }).migrate,
  };
};

export type Relations = ReturnType<typeof createRelations>;
