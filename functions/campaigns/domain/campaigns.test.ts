import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import { type RelationType, relationId } from '../../../shared/relations/relation-types';
import { callerOf } from '../../../test/support/callers';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import { createAccess } from '../../_shared/access/access';
import { createAccessCache } from '../../_shared/access/access-cache';
import { createRelationEffects } from '../../_shared/relations/relation-effects';
import type { RelationSide } from '../../_shared/relations/relation-table';
import { createCampaigns } from './campaigns';
import type { CampaignRecord } from './ports';

const DAY = 86_400_000;
const NOW = 1_700_000_000_000;

/** The relations table in memory, with the calls the use cases make. */
const memoryRelations = () => {
  const rows = new Map<string, Relation>();
  /** `add` stands for a relation written elsewhere, which raises versions: cached decisions do not survive it. */
  const state = { failCreate: false, seeded: 0 };
  const add = (type: RelationType, referrerId: string, referentId: string) => {
    state.seeded += 1;
    const id = relationId(type, referrerId, referentId);
    rows.set(id, { id, type, referrerId, referentId, created: 1 });
  };
  const matching = (side: RelationSide, id: string, type?: RelationType) =>
    [...rows.values()].filter((r) => r[`${side}Id`] === id && (type === undefined || r.type === type));
  return {
    rows,
    state,
    add,
    create: async (relation: Relation) => {
      if (state.failCreate) throw new Error('relations table down');
      if (rows.has(relation.id)) return false;
      rows.set(relation.id, relation);
      return true;
    },
    remove: async (id: string) => {
      const old = rows.get(id);
      rows.delete(id);
      return old;
    },
    keyRead: (id: string) => ({ table: 'relations', key: { id }, consistent: true }),
    getMany: async (ids: readonly string[]) => [...new Set(ids)].flatMap((id) => rows.get(id) ?? []),
    queryAll: async (side: RelationSide, id: string, types: readonly RelationType[]) =>
      types.flatMap((type) => matching(side, id, type)),
    queryIndex: async (side: RelationSide, id: string, { type, limit }: { type?: RelationType; limit: number }) => ({
      items: matching(side, id, type).slice(0, limit),
      lastKey: undefined,
    }),
  };
};

const memoryStore = () => {
  const records = new Map<string, CampaignRecord>();
  return {
    records,
    get: async (id: string) => records.get(id),
    getMany: async (ids: readonly string[]) => ids.flatMap((id) => records.get(id) ?? []),
    create: async (record: CampaignRecord) => {
      if (records.has(record.id)) return false;
      records.set(record.id, record);
      return true;
    },
    replace: async (record: CampaignRecord, expected: number) => {
      if (records.get(record.id)?.updated !== expected) return false;
      records.set(record.id, record);
      return true;
    },
    remove: async (id: string) => {
      records.delete(id);
    },
    listAll: async ({ limit }: { limit: number }) => ({
      items: [...records.values()].slice(0, limit),
      lastKey: undefined,
    }),
    listByOrganization: async (org: string, { limit }: { limit: number }) => ({
      items: [...records.values()].filter((r) => r.organizationId === org).slice(0, limit),
      lastKey: undefined,
    }),
  };
};

const setup = () => {
  const relations = memoryRelations();
  const store = memoryStore();
  const bumps: string[][] = [];
  const published: unknown[] = [];
  const state = { failBump: false };
  const versions = {
    bump: async (userIds: readonly string[]) => {
      if (state.failBump) throw new Error('versions table down');
      bumps.push([...userIds]);
    },
    get: async () => ({ version: bumps.length + relations.state.seeded, changedAt: 0 }),
  };
  const events = { publish: async (e: readonly unknown[]) => void published.push(...e) };
  let ids = 0;
  const newId = () => `id-${++ids}`;
  const access = createAccess({
    relations,
    versions,
    cache: createAccessCache(),
    campaigns: {
      windows: async (campaignIds) =>
        new Map(
          campaignIds.flatMap((id) => {
            const r = store.records.get(id);
            return r ? [[id, { startsAt: r.startsAt, endsAt: r.endsAt }] as const] : [];
          }),
        ),
    },
    now: () => NOW,
    settleMs: 0,
  });
  const campaigns = createCampaigns({
    log: silentLog,
    store,
    organizations: { exists: async (id: string) => id.startsWith('org-') },
    relations,
    effects: createRelationEffects({ versions, events, now: () => NOW, newId }),
    versions,
    access,
    now: () => NOW,
    newId,
  });
  return { campaigns, relations, store, bumps, published, state };
};

const ann = callerOf('ann');
const bob = callerOf('bob');
const staff = callerOf('eve', ['Employees']);
const input = { name: 'Air', description: '', startsAt: NOW - DAY, endsAt: NOW + DAY };

describe('create', () => {
  it('stores the campaign, makes the creator its manager, raises their version and derives the status', async () => {
    const { campaigns, relations, bumps } = setup();
    const created = await campaigns.create(ann, input);
    expect(created).toMatchObject({ id: 'id-1', status: 'running', createdBy: 'ann', created: NOW, updated: NOW });
    expect(relations.rows.get(relationId('campaign-manager', 'id-1', 'ann'))).toMatchObject({ createdBy: 'ann' });
    expect(bumps).toEqual([['ann']]);
  });

  it('is undone whole when the manager relation cannot be written', async () => {
    const { campaigns, relations, store } = setup();
    relations.state.failCreate = true;
    const error = await rejectionOf(campaigns.create(ann, input));
    expect(error.status).toBe(503);
    expect(error.message).toBe(MESSAGES.changeUndone);
    expect(store.records.size).toBe(0);
    expect(relations.rows.size).toBe(0);
  });

  it('is undone whole when the version bump fails', async () => {
    const { campaigns, relations, store, state } = setup();
    state.failBump = true;
    expect((await rejectionOf(campaigns.create(ann, input))).status).toBe(503);
    expect(store.records.size).toBe(0);
    expect(relations.rows.size).toBe(0);
  });

  it('links an organization only for its managers and only when it exists; staff may link any existing one', async () => {
    const { campaigns, relations } = setup();
    const refused = await rejectionOf(campaigns.create(ann, { ...input, organizationId: 'org-1' }));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe(MESSAGES.campaignOrganizationManagerRequired);
    relations.add('organization-manager', 'org-1', 'ann');
    expect((await campaigns.create(ann, { ...input, organizationId: 'org-1' })).organizationId).toBe('org-1');
    relations.add('organization-manager', 'gone', 'ann');
    expect((await rejectionOf(campaigns.create(ann, { ...input, organizationId: 'gone' }))).status).toBe(404);
    expect((await campaigns.create(staff, { ...input, organizationId: 'org-2' })).organizationId).toBe('org-2');
  });
});

describe('update', () => {
  it('changes only the fields sent; a window change raises every member’s version', async () => {
    const { campaigns, relations, bumps } = setup();
    const { id } = await campaigns.create(ann, input);
    relations.add('campaign-user', id, 'bob');
    relations.add('campaign-participant', id, 'pat');
    bumps.length = 0;

    const renamed = await campaigns.update(ann, id, { name: 'Water' });
    expect(renamed).toMatchObject({ name: 'Water', startsAt: input.startsAt, updated: NOW + 1 });
    expect(bumps).toEqual([]);

    const moved = await campaigns.update(ann, id, { endsAt: NOW + 2 * DAY });
    expect(moved.endsAt).toBe(NOW + 2 * DAY);
    expect(bumps.map((b) => [...b].sort())).toEqual([['ann', 'bob', 'pat']]);
  });

  it('checks the merged window (400), the manager (403) and the record (404)', async () => {
    const { campaigns, relations } = setup();
    const { id } = await campaigns.create(ann, input);
    const inverted = await rejectionOf(campaigns.update(ann, id, { startsAt: input.endsAt }));
    expect(inverted.status).toBe(400);
    expect(inverted.message).toContain('The campaign must end after it starts');
    relations.add('campaign-user', id, 'bob');
    expect((await rejectionOf(campaigns.update(bob, id, { name: 'x' }))).status).toBe(403);
    expect((await rejectionOf(campaigns.update(staff, 'nope', { name: 'x' }))).status).toBe(404);
  });

  it('unlinks with null; linking another organization needs manage on it', async () => {
    const { campaigns, relations } = setup();
    relations.add('organization-manager', 'org-1', 'ann');
    const { id } = await campaigns.create(ann, { ...input, organizationId: 'org-1' });
    expect((await rejectionOf(campaigns.update(ann, id, { organizationId: 'org-9' }))).status).toBe(403);
    expect((await campaigns.update(ann, id, { organizationId: null })).organizationId).toBeUndefined();
  });

  it('puts the old window back when the members cannot be told (their caches would keep the old one)', async () => {
    const { campaigns, store, state } = setup();
    const { id } = await campaigns.create(ann, input);
    state.failBump = true;
    expect((await rejectionOf(campaigns.update(ann, id, { endsAt: NOW + 3 * DAY }))).status).toBe(503);
    expect(store.records.get(id)?.endsAt).toBe(input.endsAt);
  });
});

describe('lists and reads', () => {
  it('mine lists each campaign once with every role held, and leaves out relations without a record', async () => {
    const { campaigns, relations } = setup();
    const first = await campaigns.create(bob, input);
    const second = await campaigns.create(bob, input);
    relations.add('campaign-manager', first.id, 'ann');
    relations.add('campaign-user', first.id, 'ann');
    relations.add('campaign-participant', second.id, 'ann');
    relations.add('campaign-user', 'legacy', 'ann');
    const { items } = await campaigns.listMine(ann, { limit: 10 });
    expect(items.map(({ id, roles }) => ({ id, roles }))).toEqual([
      { id: first.id, roles: ['campaign-manager', 'campaign-user'] },
      { id: second.id, roles: ['campaign-participant'] },
    ]);
  });

  it('get needs a campaign relation; by organization needs view on the organization', async () => {
    const { campaigns, relations } = setup();
    const { id } = await campaigns.create(ann, input);
    expect((await rejectionOf(campaigns.get(bob, id))).status).toBe(403);
    relations.add('campaign-participant', id, 'bob');
    expect((await campaigns.get(bob, id)).id).toBe(id);
    expect((await rejectionOf(campaigns.listByOrganization(bob, 'org-1', { limit: 5 }))).status).toBe(403);
    relations.add('organization-user', 'org-1', 'bob');
    expect((await campaigns.listByOrganization(bob, 'org-1', { limit: 5 })).items).toEqual([]);
  });
});

describe('remove', () => {
  it('removes every relation of the campaign, raises the members’ versions, tells of the removals, then the record', async () => {
    const { campaigns, relations, store, bumps, published } = setup();
    const { id } = await campaigns.create(ann, input);
    relations.add('campaign-user', id, 'bob');
    relations.add('campaign-device', id, 'd1');
    relations.add('device-owner', 'd1', 'ann');
    bumps.length = 0;
    published.length = 0;
    expect((await rejectionOf(campaigns.remove(bob, id))).status).toBe(403);
    await campaigns.remove(ann, id);
    expect([...relations.rows.keys()]).toEqual([relationId('device-owner', 'd1', 'ann')]);
    expect(store.records.has(id)).toBe(false);
    expect(bumps.map((b) => [...b].sort())).toEqual([['ann', 'bob']]);
  });

  it('an unknown campaign with no relations is 404 (staff)', async () => {
    const { campaigns } = setup();
    expect((await rejectionOf(campaigns.remove(staff, 'nope'))).status).toBe(404);
  });
});

describe('device access', () => {
  it('through a campaign: its window; direct and staff: unlimited (null); none: 403', async () => {
    const { campaigns, relations } = setup();
    const created = await campaigns.create(ann, input);
    relations.add('campaign-device', created.id, 'd1');
    relations.add('campaign-user', created.id, 'bob');
    relations.add('device-owner', 'd1', 'carl');
    expect(await campaigns.deviceAccess(bob, 'd1')).toEqual({
      deviceId: 'd1',
      via: 'campaign',
      windows: [{ startsAt: input.startsAt, endsAt: input.endsAt }],
      campaignIds: [created.id],
    });
    expect(await campaigns.deviceAccess(callerOf('carl'), 'd1')).toEqual({
      deviceId: 'd1',
      via: 'device-owner',
      windows: null,
      campaignIds: [],
    });
    expect((await campaigns.deviceAccess(staff, 'd1')).windows).toBeNull();
    expect((await rejectionOf(campaigns.deviceAccess(callerOf('dan'), 'd1'))).status).toBe(403);
  });
});
