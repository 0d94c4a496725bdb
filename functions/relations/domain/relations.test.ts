import type { DomainEvent, RelationChanged } from '../../../shared/contracts/events';
import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import { RELATION_TYPES, type RelationType, relationId } from '../../../shared/relations/relation-types';
import { callerOf as caller } from '../../../test/support/callers';
import { recordingLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import { createAccess } from '../../_shared/access/access';
import { createAccessCache } from '../../_shared/access/access-cache';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { planMigration } from '../../_shared/relations/relation-migration';
import {
  type IndexQuery,
  type RelationSide,
  type RelationTable,
  toItem,
  toRelation,
} from '../../_shared/relations/relation-table';
import { createRelations } from './relations';

type Row = Record<string, unknown>;
type Key = Record<string, unknown>;

const staff = caller('boss', ['Employees']);
const ann = caller('ann');
const bob = caller('bob');

/** Pages over a list by the position after the last item returned. */
const pageOf = <T>(items: T[], limit: number, startKey: Key | undefined) => {
  const start = typeof startKey?.at === 'number' ? startKey.at : 0;
  const end = start + limit;
  return { items: items.slice(start, end), lastKey: end < items.length ? { at: end } : undefined };
};

/** The relations table in memory: rows as stored (legacy rows included), indexes computed on read. */
const memoryTable = () => {
  const rows = new Map<string, Row>();
  const queryIndex = async (side: RelationSide, id: string, { type, otherId, limit, startKey }: IndexQuery) => {
    const sortOf = (row: Row) => String(row[side === 'referrer' ? 'referrerSort' : 'referentSort']);
    const prefix = type === undefined ? '' : otherId === undefined ? `${type}#` : `${type}#${otherId}`;
    const matching = [...rows.values()]
      .filter(
        (row) =>
          row[`${side}Id`] === id && (otherId === undefined ? sortOf(row).startsWith(prefix) : sortOf(row) === prefix),
      )
      .sort((a, b) => sortOf(a).localeCompare(sortOf(b)))
      .map(toRelation);
    return pageOf(matching, limit, startKey);
  };
  const table: RelationTable = {
    get: async (id) => (rows.has(id) ? toRelation(rows.get(id)!) : undefined),
    keyRead: (id: string) => ({ table: 'relations', key: { id }, consistent: true }),
    getMany: async (ids) => [...new Set(ids)].flatMap((id) => (rows.has(id) ? [toRelation(rows.get(id)!)] : [])),
    queryIndex,
    queryAll: async (side, id, types) => {
      const all: Relation[] = [];
      for (const type of types) all.push(...(await queryIndex(side, id, { type, limit: 1_000 })).items);
      return all;
    },
    queryEveryType: async (side, id) => (await queryIndex(side, id, { limit: 1_000 })).items,
    listByType: async (type, { limit, startKey }) =>
      pageOf(
        [...rows.values()]
          .filter((row) => row.type === type)
          .map(toRelation)
          .sort((a, b) => b.created - a.created),
        limit,
        startKey,
      ),
    create: async (relation) => {
      if (rows.has(relation.id)) return false;
      rows.set(relation.id, toItem(relation));
      return true;
    },
    put: async (relation) => {
      rows.set(relation.id, toItem(relation));
    },
    remove: async (id) => {
      const row = rows.get(id);
      if (!row) return undefined;
      rows.delete(id);
      return toRelation(row);
    },
    // Like DynamoDB, a scan continues after the last key it returned, so rows written meanwhile do not shift it.
    scan: async ({ limit, startKey }) => {
      const after = typeof startKey?.id === 'string' ? startKey.id : '';
      const ordered = [...rows.values()]
        .filter((row) => String(row.id) > after)
        .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
      const items = ordered.slice(0, limit);
      return { items, lastKey: ordered.length > limit ? { id: items.at(-1)!.id } : undefined };
    },
    removeRow: async (id) => {
      rows.delete(id);
    },
  };
  return { table, rows };
};

const setup = () => {
  let clock = 1_000_000;
  const { table, rows } = memoryTable();
  const stored = new Map<string, { version: number; changedAt: number }>();
  const bumps: string[][] = [];
  const published: RelationChanged[][] = [];
  const failures = { bump: false, publish: false };
  const versions = {
    reads: 0,
    get: async (userId: string) => {
      versions.reads += 1;
      return stored.get(userId) ?? { version: 0, changedAt: 0 };
    },
    bump: async (userIds: readonly string[], now: number) => {
      if (failures.bump) throw new Error('versions table unavailable');
      bumps.push([...userIds]);
      for (const id of new Set(userIds))
        stored.set(id, { version: (stored.get(id)?.version ?? 0) + 1, changedAt: now });
    },
  };
  const events = {
    publish: async (batch: readonly DomainEvent[]) => {
      if (failures.publish) throw new Error('jobs queue unavailable');
      published.push(batch.filter((e): e is RelationChanged => e.kind === 'relation.changed'));
    },
  };
  // The real access module over the same table, caching from the first read (as the local stack does).
  const access = createAccess({
    relations: table,
    versions,
    campaigns: { windows: async () => new Map() },
    cache: createAccessCache(),
    now: () => clock,
    settleMs: 0,
  });
  let ids = 0;
  const { log, lines: logged } = recordingLog();
  const relations = createRelations({
    log,
    table,
    access,
    versions,
    events,
    now: () => clock,
    newId: () => `event-${++ids}`,
  });
  /** Seeds a relation straight into the table (no rules, no bumps). */
  const seed = (type: RelationType, referrerId: string, referentId: string, created = 1) => {
    const id = relationId(type, referrerId, referentId);
    rows.set(id, toItem({ id, type, referrerId, referentId, created }));
  };
  const has = (type: RelationType, referrerId: string, referentId: string) =>
    rows.has(relationId(type, referrerId, referentId));
  return {
    relations,
    logged,
    table,
    rows,
    access,
    bumps,
    versions,
    published,
    failures,
    seed,
    has,
    tick: (ms = 1_000) => {
      clock += ms;
    },
    clock: () => clock,
  };
};

describe('creating a relation', () => {
  it('stores it under its deterministic id and returns it with the creation time and creator', async () => {
    const { relations, seed, table, clock } = setup();
    seed('organization-manager', 'org-1', 'ann');
    const created = await relations.create(ann, { type: 'organization-user', referrerId: 'org-1', referentId: 'bob' });
    const expected = {
      id: 'organization-user#org-1#bob',
      type: 'organization-user',
      referrerId: 'org-1',
      referentId: 'bob',
      created: clock(),
      createdBy: 'ann',
    };
    expect(created).toEqual(expected);
    expect(await table.get('organization-user#org-1#bob')).toEqual(expected);
  });

  it('refuses the same relation twice with a 409 and keeps the first', async () => {
    const { relations, table, bumps, tick } = setup();
    const input = { type: 'device-user', referrerId: 'd1', referentId: 'bob' } as const;
    const first = await relations.create(staff, input);
    tick();
    const error = await rejectionOf(relations.create(staff, input));
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe(MESSAGES.relationExists('device-user#d1#bob'));
    expect(await table.get(first.id)).toEqual(first);
    expect(bumps).toHaveLength(1);
  });

  it('refuses a second role in the same family between the same two objects: that is a role change', async () => {
    const { relations, seed, has } = setup();
    seed('organization-user', 'org-1', 'bob');
    const error = await rejectionOf(
      relations.create(staff, { type: 'organization-manager', referrerId: 'org-1', referentId: 'bob' }),
    );
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe(MESSAGES.relationRoleExists('organization-user'));
    expect(has('organization-manager', 'org-1', 'bob')).toBe(false);
  });

  it('allows the same role on another object, and a role of another family on the same one', async () => {
    const { relations, seed } = setup();
    seed('device-user', 'd1', 'bob');
    await expect(
      relations.create(staff, { type: 'device-user', referrerId: 'd2', referentId: 'bob' }),
    ).resolves.toEqual(expect.objectContaining({ id: 'device-user#d2#bob' }));
    await expect(
      relations.create(staff, { type: 'device-owner', referrerId: 'd1', referentId: 'bob' }),
    ).resolves.toBeDefined();
  });

  it('refuses a relation from an id to itself', async () => {
    const { relations } = setup();
    const error = await rejectionOf(
      relations.create(staff, { type: 'inviter-contact', referrerId: 'x', referentId: 'x' }),
    );
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toBe(MESSAGES.relationSameEnds);
  });

  it('refuses what the rules refuse, reading the caller’s roles from the table, and writes nothing', async () => {
    const { relations, seed, has, bumps } = setup();
    seed('organization-user', 'org-1', 'ann');
    const error = await rejectionOf(
      relations.create(ann, { type: 'organization-user', referrerId: 'org-1', referentId: 'bob' }),
    );
    expect(error).toBeInstanceOf(Forbidden);
    expect(error.message).toBe(MESSAGES.relationManagerRequired('organization'));
    await expect(
      relations.create(ann, { type: 'organization-manager', referrerId: 'org-1', referentId: 'ann' }),
    ).rejects.toThrow(new Forbidden(MESSAGES.relationSelfGrant));
    expect(has('organization-user', 'org-1', 'bob')).toBe(false);
    expect(bumps).toEqual([]);
  });

  it('lets a manager of an organization who administers a device add it to the organization', async () => {
    const { relations, seed } = setup();
    seed('organization-manager', 'org-1', 'ann');
    seed('device-administrator', 'd1', 'ann');
    await expect(
      relations.create(ann, { type: 'organization-device', referrerId: 'org-1', referentId: 'd1' }),
    ).resolves.toBeDefined();
    // Administering another device does not count.
    seed('device-administrator', 'd9', 'ann');
    await expect(
      relations.create(ann, { type: 'organization-device', referrerId: 'org-1', referentId: 'd2' }),
    ).rejects.toThrow(Forbidden);
  });

  it('bumps the access version of the user it names', async () => {
    const { relations, bumps } = setup();
    await relations.create(staff, { type: 'campaign-user', referrerId: 'c1', referentId: 'bob' });
    expect(bumps).toEqual([['bob']]);
  });

  it('bumps every user and manager of a campaign when a device joins it, and they see the device at once', async () => {
    const { relations, seed, bumps, access } = setup();
    seed('campaign-manager', 'c1', 'ann');
    seed('campaign-user', 'c1', 'bob');
    seed('campaign-participant', 'c1', 'pat');
    seed('campaign-user', 'c2', 'cat');
    seed('device-owner', 'd1', 'ann');
    // Bob's denial is cached before the change.
    expect((await access.forCaller(bob).check('device', 'd1')).allowed).toBe(false);
    await relations.create(ann, { type: 'campaign-device', referrerId: 'c1', referentId: 'd1' });
    expect(bumps).toHaveLength(1);
    expect([...bumps[0]!].sort()).toEqual(['ann', 'bob']);
    expect(await access.forCaller(bob).check('device', 'd1')).toMatchObject({
      allowed: true,
      via: 'campaign-user:c1',
      campaignIds: ['c1'],
    });
  });

  it('publishes an event only for device-owner, device-administrator and organization-device', async () => {
    const { relations, published, clock } = setup();
    const notified: RelationType[] = [];
    for (const type of RELATION_TYPES) {
      const before = published.length;
      const relation = await relations.create(staff, { type, referrerId: `from-${type}`, referentId: `to-${type}` });
      if (published.length > before) {
        notified.push(type);
        expect(published.at(-1)).toEqual([
          {
            kind: 'relation.changed',
            eventId: expect.any(String),
            change: 'added',
            relation,
            actorId: 'boss',
            at: clock(),
          },
        ]);
      }
    }
    expect(notified.sort()).toEqual(['device-administrator', 'device-owner', 'organization-device']);
    // Consumers de-duplicate on the event id: each must be unique.
    expect(new Set(published.flat().map((e) => e.eventId)).size).toBe(3);
  });

  it('names the caller as the actor', async () => {
    const { relations, seed, published } = setup();
    seed('device-owner', 'd1', 'ann');
    await relations.create(ann, { type: 'device-administrator', referrerId: 'd1', referentId: 'bob' });
    expect(published.flat().map((e) => e.actorId)).toEqual(['ann']);
  });

  it('undoes the relation and answers 503 when its event cannot be sent', async () => {
    const { relations, seed, has, failures, bumps, published, logged } = setup();
    seed('device-owner', 'd1', 'ann');
    failures.publish = true;
    const error: Error & { status?: number } = await rejectionOf(
      relations.create(ann, { type: 'device-administrator', referrerId: 'd1', referentId: 'bob' }),
    );
    expect(error).toBeInstanceOf(ServiceUnavailable);
    expect(error.status).toBe(503);
    expect(error.message).toBe(MESSAGES.relationChangeUndone);
    expect(has('device-administrator', 'd1', 'bob')).toBe(false);
    expect(published).toEqual([]);
    // Bumped before the publish and again after the undo: no cache keeps the short-lived grant.
    expect(bumps).toEqual([['bob'], ['bob']]);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'Relation change undone',
        fields: expect.objectContaining({ changes: ['added device-administrator#d1#bob'] }),
      }),
    );
    // After the outage the same change goes through: the undo left no duplicate behind.
    failures.publish = false;
    await expect(
      relations.create(ann, { type: 'device-administrator', referrerId: 'd1', referentId: 'bob' }),
    ).resolves.toBeDefined();
  });

  it('undoes the relation and answers 503 when the access versions cannot be bumped', async () => {
    const { relations, has, failures, logged } = setup();
    failures.bump = true;
    await expect(relations.create(staff, { type: 'device-user', referrerId: 'd1', referentId: 'bob' })).rejects.toThrow(
      ServiceUnavailable,
    );
    expect(has('device-user', 'd1', 'bob')).toBe(false);
    // The bump after the undo fails too; it is logged, and the client still hears "undone, retry".
    expect(logged.map((line) => line.message)).toEqual([
      'Relation change undone',
      'Access versions not raised after an undo',
    ]);
  });

  it("undoes a campaign-device relation and answers 503 when the campaign's members cannot be read", async () => {
    const { relations, table, has } = setup();
    table.queryAll = async () => {
      throw new Error('index unavailable');
    };
    await expect(
      relations.create(staff, { type: 'campaign-device', referrerId: 'c1', referentId: 'd1' }),
    ).rejects.toThrow(ServiceUnavailable);
    expect(has('campaign-device', 'c1', 'd1')).toBe(false);
  });

  it('refuses a second owner of a device, even for staff', async () => {
    const { relations, seed } = setup();
    seed('device-owner', 'd1', 'ann');
    await expect(
      relations.create(staff, { type: 'device-owner', referrerId: 'd1', referentId: 'bob' }),
    ).rejects.toThrow(new Conflict(MESSAGES.relationOwnerExists));
  });
});

describe('removing a relation', () => {
  it('removes it, bumps the user and publishes a removal for a notified type', async () => {
    const { relations, seed, has, bumps, published } = setup();
    seed('device-owner', 'd1', 'ann');
    seed('device-administrator', 'd1', 'bob', 7);
    await relations.remove(ann, 'device-administrator#d1#bob');
    expect(has('device-administrator', 'd1', 'bob')).toBe(false);
    expect(bumps).toEqual([['bob']]);
    expect(published.flat()).toEqual([
      expect.objectContaining({
        change: 'removed',
        actorId: 'ann',
        relation: expect.objectContaining({ id: 'device-administrator#d1#bob', created: 7 }),
      }),
    ]);
  });

  it('publishes nothing for a type nobody is notified of', async () => {
    const { relations, seed, published } = setup();
    seed('device-user', 'd1', 'bob');
    await relations.remove(bob, 'device-user#d1#bob');
    expect(published).toEqual([]);
  });

  it('lets a member leave, and the access they had ends with the next request', async () => {
    const { relations, seed, access } = setup();
    seed('device-user', 'd1', 'bob');
    expect((await access.forCaller(bob).check('device', 'd1')).allowed).toBe(true);
    await relations.remove(bob, 'device-user#d1#bob');
    expect((await access.forCaller(bob).check('device', 'd1')).allowed).toBe(false);
  });

  it('ends the campaign path for every member when a device leaves the campaign', async () => {
    const { relations, seed, access, bumps } = setup();
    seed('campaign-manager', 'c1', 'ann');
    seed('campaign-user', 'c1', 'bob');
    seed('campaign-device', 'c1', 'd1');
    expect((await access.forCaller(bob).check('device', 'd1')).allowed).toBe(true);
    await relations.remove(ann, 'campaign-device#c1#d1');
    expect([...bumps[0]!].sort()).toEqual(['ann', 'bob']);
    expect((await access.forCaller(bob).check('device', 'd1')).allowed).toBe(false);
  });

  it('keeps the last manager of an organization, unless staff removes them', async () => {
    const { relations, seed, has } = setup();
    seed('organization-manager', 'org-1', 'ann');
    seed('organization-user', 'org-1', 'bob');
    const error = await rejectionOf(relations.remove(ann, 'organization-manager#org-1#ann'));
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe(MESSAGES.relationLastManager('organization'));
    expect(has('organization-manager', 'org-1', 'ann')).toBe(true);
    await relations.remove(staff, 'organization-manager#org-1#ann');
    expect(has('organization-manager', 'org-1', 'ann')).toBe(false);
  });

  it('lets a manager leave when another manager remains (of that organization)', async () => {
    const { relations, seed, has } = setup();
    seed('organization-manager', 'org-1', 'ann');
    seed('organization-manager', 'org-2', 'bob');
    await expect(relations.remove(ann, 'organization-manager#org-1#ann')).rejects.toThrow(Conflict);
    seed('organization-manager', 'org-1', 'cat');
    await relations.remove(ann, 'organization-manager#org-1#ann');
    expect(has('organization-manager', 'org-1', 'ann')).toBe(false);
  });

  it('keeps the last manager of a campaign too', async () => {
    const { relations, seed } = setup();
    seed('campaign-manager', 'c1', 'ann');
    await expect(relations.remove(ann, 'campaign-manager#c1#ann')).rejects.toThrow(
      new Conflict(MESSAGES.relationLastManager('campaign')),
    );
  });

  it('answers 404 for a relation that does not exist, and 403 before revealing it to a stranger', async () => {
    const { relations, seed } = setup();
    seed('device-user', 'd1', 'bob');
    await expect(relations.remove(staff, 'device-user#d1#cat')).rejects.toThrow(
      new NotFound(MESSAGES.relationNotFound('device-user#d1#cat')),
    );
    await expect(relations.remove(ann, 'device-user#d1#bob')).rejects.toThrow(Forbidden);
    await expect(relations.remove(ann, 'device-user#d1#cat')).rejects.toThrow(Forbidden);
  });

  it('restores the relation and answers 503 when its event cannot be sent', async () => {
    const { relations, seed, table, failures } = setup();
    seed('organization-manager', 'org-1', 'ann');
    seed('device-owner', 'd1', 'ann');
    seed('organization-device', 'org-1', 'd1', 42);
    const before = await table.get('organization-device#org-1#d1');
    failures.publish = true;
    await expect(relations.remove(ann, 'organization-device#org-1#d1')).rejects.toThrow(ServiceUnavailable);
    expect(await table.get('organization-device#org-1#d1')).toEqual(before);
  });
});

describe('changing a role', () => {
  it('moves the relation to the new type and bumps the user', async () => {
    const { relations, seed, has, bumps, published, clock } = setup();
    seed('organization-manager', 'org-1', 'ann');
    seed('organization-user', 'org-1', 'bob');
    const changed = await relations.changeType(ann, 'organization-user#org-1#bob', 'organization-manager');
    expect(changed).toEqual({
      id: 'organization-manager#org-1#bob',
      type: 'organization-manager',
      referrerId: 'org-1',
      referentId: 'bob',
      created: clock(),
      createdBy: 'ann',
    });
    expect(has('organization-user', 'org-1', 'bob')).toBe(false);
    expect(has('organization-manager', 'org-1', 'bob')).toBe(true);
    expect(bumps.flat()).toContain('bob');
    expect(published).toEqual([]);
  });

  it('publishes the addition of a device administrator, and on demotion its removal', async () => {
    const { relations, seed, published } = setup();
    seed('device-owner', 'd1', 'ann');
    seed('device-user', 'd1', 'bob');
    await relations.changeType(ann, 'device-user#d1#bob', 'device-administrator');
    expect(published.flat().map((e) => [e.change, e.relation.id])).toEqual([['added', 'device-administrator#d1#bob']]);
    published.length = 0;
    await relations.changeType(ann, 'device-administrator#d1#bob', 'device-user');
    expect(published.flat().map((e) => [e.change, e.relation.id])).toEqual([
      ['removed', 'device-administrator#d1#bob'],
    ]);
  });

  it('takes away the management the old role gave', async () => {
    const { relations, seed, access } = setup();
    seed('device-owner', 'd1', 'ann');
    seed('device-administrator', 'd1', 'bob');
    expect((await access.forCaller(bob).check('device', 'd1', { need: 'manage' })).allowed).toBe(true);
    await relations.changeType(ann, 'device-administrator#d1#bob', 'device-user');
    expect((await access.forCaller(bob).check('device', 'd1', { need: 'manage' })).allowed).toBe(false);
    expect((await access.forCaller(bob).check('device', 'd1')).allowed).toBe(true);
  });

  it('refuses a change outside the family as a bad request', async () => {
    const { relations, seed } = setup();
    seed('organization-user', 'org-1', 'bob');
    await expect(relations.changeType(staff, 'organization-user#org-1#bob', 'campaign-user')).rejects.toThrow(
      new BadRequest(MESSAGES.relationNotInFamily('organization-user', 'campaign-user')),
    );
  });

  it('refuses a caller the rules refuse, and answers 404 for a missing relation', async () => {
    const { relations, seed, has } = setup();
    seed('device-administrator', 'd1', 'ann');
    seed('device-user', 'd1', 'bob');
    await expect(relations.changeType(ann, 'device-user#d1#bob', 'device-administrator')).rejects.toThrow(
      new Forbidden(MESSAGES.relationOwnerRequired),
    );
    expect(has('device-user', 'd1', 'bob')).toBe(true);
    await expect(relations.changeType(staff, 'device-user#d1#cat', 'device-administrator')).rejects.toThrow(NotFound);
    expect(has('device-administrator', 'd1', 'cat')).toBe(false);
  });

  it('puts the old role back and removes the new one when its event cannot be sent', async () => {
    const { relations, seed, has, failures } = setup();
    seed('device-owner', 'd1', 'ann');
    seed('device-user', 'd1', 'bob');
    failures.publish = true;
    await expect(relations.changeType(ann, 'device-user#d1#bob', 'device-administrator')).rejects.toThrow(
      ServiceUnavailable,
    );
    expect(has('device-user', 'd1', 'bob')).toBe(true);
    expect(has('device-administrator', 'd1', 'bob')).toBe(false);
  });

  it('finishes a change an earlier attempt left half-way (new role written, old still there)', async () => {
    const { relations, seed, has } = setup();
    seed('organization-manager', 'org-1', 'ann');
    seed('organization-user', 'org-1', 'bob');
    seed('organization-participant', 'org-1', 'bob', 5);
    const result = await relations.changeType(ann, 'organization-user#org-1#bob', 'organization-participant');
    expect(result).toEqual(expect.objectContaining({ id: 'organization-participant#org-1#bob', created: 5 }));
    expect(has('organization-user', 'org-1', 'bob')).toBe(false);
  });
});

describe('reading relations', () => {
  it('shows a device’s members to its users and not to strangers', async () => {
    const { relations, seed } = setup();
    seed('device-owner', 'd1', 'ann');
    seed('device-user', 'd1', 'bob');
    const page = await relations.listBy(bob, 'referrer', 'd1', { limit: 10 });
    expect(page.items.map((r) => r.id).sort()).toEqual(['device-owner#d1#ann', 'device-user#d1#bob']);
    await expect(relations.listBy(caller('cat'), 'referrer', 'd1', { limit: 10 })).rejects.toThrow(
      new Forbidden(MESSAGES.relationReadDenied),
    );
  });

  it('shows a user their own relations, and not another user’s', async () => {
    const { relations, seed } = setup();
    seed('device-user', 'd1', 'bob');
    seed('campaign-user', 'c1', 'bob');
    expect((await relations.listBy(bob, 'referent', 'bob', { limit: 10 })).items).toHaveLength(2);
    await expect(relations.listBy(ann, 'referent', 'bob', { limit: 10 })).rejects.toThrow(Forbidden);
  });

  it("reads the caller's access version once per request, however many ids it checks", async () => {
    const { relations, seed, versions } = setup();
    for (const device of ['d1', 'd2', 'd3']) seed('device-user', device, 'bob');
    const before = versions.reads;
    await relations.listByParameters(bob, {
      limit: 10,
      parameters: ['d1', 'd2', 'd3'].map((id) => ({ typeName: 'referrer', typeArray: ['device-user'], id })),
    });
    expect(versions.reads - before).toBe(1);
    // Refused on the organization end, allowed on the device end: two checks, one version read.
    seed('organization-device', 'o1', 'd1');
    await relations.get(bob, 'organization-device#o1#d1');
    expect(versions.reads - before).toBe(2);
  });

  it('lists overlapping parameters without repeating a relation', async () => {
    const { relations, seed } = setup();
    seed('device-user', 'd1', 'bob');
    seed('device-owner', 'd1', 'ann');
    const page = await relations.listByParameters(staff, {
      limit: 1,
      parameters: [
        { typeName: 'referrer', typeArray: ['device-user', 'device-owner'], id: 'd1' },
        { typeName: 'referent', typeArray: ['device-user'], id: 'bob' },
      ],
    });
    const all = [...page.items];
    let cursor = page.nextCursor;
    while (cursor) {
      const next = await relations.listByParameters(staff, {
        limit: 1,
        cursor,
        parameters: [
          { typeName: 'referrer', typeArray: ['device-user', 'device-owner'], id: 'd1' },
          { typeName: 'referent', typeArray: ['device-user'], id: 'bob' },
        ],
      });
      all.push(...next.items);
      cursor = next.nextCursor;
    }
    expect(all.map((r) => r.id).sort()).toEqual(['device-owner#d1#ann', 'device-user#d1#bob']);
  });

  it('gets one relation for either end, 404 when missing, 403 for a stranger', async () => {
    const { relations, seed } = setup();
    seed('device-user', 'd1', 'bob');
    await expect(relations.get(bob, 'device-user#d1#bob')).resolves.toEqual(
      expect.objectContaining({ id: 'device-user#d1#bob' }),
    );
    await expect(relations.get(bob, 'device-administrator#d1#bob')).rejects.toThrow(NotFound);
    await expect(relations.get(ann, 'device-user#d1#bob')).rejects.toThrow(Forbidden);
  });
});

describe('migration', () => {
  const current = toItem({
    id: 'device-user#d1#bob',
    type: 'device-user',
    referrerId: 'd1',
    referentId: 'bob',
    created: 5,
    createdBy: 'ann',
  });

  it('leaves a current row alone', () => {
    expect(planMigration(current, 99)).toBe('current');
  });

  it('re-keys a legacy row with a random id to the deterministic one, keeping what it knew', () => {
    const legacy = {
      id: '5b0c7c3e-7f2e-4a8e-8f5e-1c2d3e4f5a6b',
      type: 'device-user',
      referrerId: 'd1',
      referentId: 'bob',
      created: 5,
      createdBy: 'ann',
    };
    expect(planMigration(legacy, 99)).toEqual({
      rekey: true,
      relation: {
        id: 'device-user#d1#bob',
        type: 'device-user',
        referrerId: 'd1',
        referentId: 'bob',
        created: 5,
        createdBy: 'ann',
      },
    });
  });

  it.each([
    ['no index sort keys', { referrerSort: undefined, referentSort: undefined }],
    ['a stale sort key', { referrerSort: 'device-user#someone-else' }],
  ])('rewrites in place a row with %s', (_case, change) => {
    const plan = planMigration({ ...current, ...change }, 99);
    expect(plan).toEqual({ rekey: false, relation: toRelation(current) });
  });

  it('gives a row without a creation time the migration time', () => {
    const { created: _created, ...row } = current;
    expect(planMigration(row, 99)).toEqual({ rekey: false, relation: { ...toRelation(current), created: 99 } });
  });

  it.each([
    ['an unknown type', { type: 'device-friend' }],
    ['no type', { type: undefined }],
    ['an empty referrer', { referrerId: '' }],
    ['a referent with forbidden marks', { referentId: 'bob smith' }],
    ['a numeric referent', { referentId: 7 }],
    ['the same id at both ends', { referentId: 'd1' }],
  ])('marks a row with %s invalid', (_case, change) => {
    expect(planMigration({ ...current, ...change }, 99)).toBe('invalid');
  });

  it('migrates a page: re-keys, rewrites, counts what it skipped and bumps the users concerned', async () => {
    const { relations, rows, has, bumps } = setup();
    rows.set('legacy-1', { id: 'legacy-1', type: 'campaign-user', referrerId: 'c1', referentId: 'bob' });
    rows.set(current.id, { ...current, referrerSort: undefined });
    rows.set('legacy-2', { id: 'legacy-2', type: 'no-such-type', referrerId: 'a', referentId: 'b' });
    rows.set(
      'device-owner#d2#ann',
      toItem({ id: 'device-owner#d2#ann', type: 'device-owner', referrerId: 'd2', referentId: 'ann', created: 1 }),
    );
    const result = await relations.migrate({ limit: 10 });
    expect(result).toEqual({ scanned: 4, updated: 2, skipped: 1 });
    expect(rows.has('legacy-1')).toBe(false);
    expect(has('campaign-user', 'c1', 'bob')).toBe(true);
    expect(rows.get(current.id)?.referrerSort).toBe('device-user#bob');
    // The invalid row stays for a person to look at.
    expect(rows.has('legacy-2')).toBe(true);
    expect([...bumps.flat()].sort()).toEqual(['bob', 'bob']);
    // Run again: nothing left to do.
    expect(await relations.migrate({ limit: 10 })).toEqual({ scanned: 4, updated: 0, skipped: 1 });
  });

  it('drops a legacy duplicate of a relation that already exists, keeping the existing one', async () => {
    const { relations, rows, table } = setup();
    const existing = {
      id: 'device-user#d1#bob',
      type: 'device-user',
      referrerId: 'd1',
      referentId: 'bob',
      created: 3,
    } as const;
    rows.set(existing.id, toItem(existing));
    rows.set('legacy-1', { id: 'legacy-1', type: 'device-user', referrerId: 'd1', referentId: 'bob', created: 9 });
    await relations.migrate({ limit: 10 });
    expect(rows.has('legacy-1')).toBe(false);
    expect(await table.get(existing.id)).toEqual(existing);
  });

  it('pages through the table with a cursor until every row is migrated', async () => {
    const { relations, rows, has } = setup();
    for (let n = 0; n < 5; n += 1) {
      rows.set(`legacy-${n}`, {
        id: `legacy-${n}`,
        type: 'device-user',
        referrerId: `d${n}`,
        referentId: 'bob',
        created: 1,
      });
    }
    const first = await relations.migrate({ limit: 2 });
    expect(first).toEqual(expect.objectContaining({ scanned: 2, updated: 2 }));
    let cursor = first.nextCursor;
    expect(cursor).toBeDefined();
    for (let pages = 0; cursor && pages < 20; pages += 1)
      cursor = (await relations.migrate({ limit: 2, cursor })).nextCursor;
    expect(cursor).toBeUndefined();
    for (let n = 0; n < 5; n += 1) expect(has('device-user', `d${n}`, 'bob')).toBe(true);
    expect([...rows.keys()].filter((id) => id.startsWith('legacy-'))).toEqual([]);
  });
});
