import type { Window } from '../../../shared/campaigns/window';
import type { Relation } from '../../../shared/contracts/relations';
import { type RelationType, relationId } from '../../../shared/relations/relation-types';
import { callerOf as caller } from '../../../test/support/callers';
import { Forbidden, Unauthorized } from '../errors';
import type { ReadAhead } from '../read-ahead';
import type { RelationSide } from '../relations/relation-table';
import { createAccess } from './access';
import { createAccessCache } from './access-cache';

/** The relations table as the access module reads it, counting reads. */
const memoryRelations = () => {
  const rows = new Map<string, Relation>();
  /** What the (eventually consistent) index answers instead of the table, when set. */
  let staleIndex: Relation[] | undefined;
  const calls = { getMany: 0, queryAll: 0 };
  return {
    calls,
    add: (type: RelationType, referrerId: string, referentId: string) => {
      const id = relationId(type, referrerId, referentId);
      rows.set(id, { id, type, referrerId, referentId, created: 1 });
    },
    delete: (type: RelationType, referrerId: string, referentId: string) =>
      rows.delete(relationId(type, referrerId, referentId)),
    lagIndex: (items: Relation[]) => {
      staleIndex = items;
    },
    keyRead: (id: string) => ({ table: 'relations', key: { id }, consistent: true }),
    /** Ids read ahead come from there, as the table's own getMany takes them. */
    getMany: async (ids: readonly string[], ahead?: ReadAhead) => {
      const read = (id: string) => ({ table: 'relations', key: { id }, consistent: true });
      const left = ids.filter((id) => !ahead?.has(read(id)));
      if (left.length) calls.getMany += 1;
      return [
        ...ids.flatMap((id) => (ahead?.has(read(id)) ? ((ahead.item(read(id)) as Relation | undefined) ?? []) : [])),
        ...[...new Set(left)].flatMap((id) => rows.get(id) ?? []),
      ];
    },
    queryAll: async (side: RelationSide, id: string, types: readonly RelationType[]) => {
      calls.queryAll += 1;
      return (staleIndex ?? [...rows.values()]).filter((r) => r[`${side}Id`] === id && types.includes(r.type));
    },
  };
};

const memoryVersions = () => {
  const stored = new Map<string, { version: number; changedAt: number }>();
  const calls = { get: 0 };
  return {
    calls,
    bump: (userId: string, at: number) =>
      stored.set(userId, { version: (stored.get(userId)?.version ?? 0) + 1, changedAt: at }),
    get: async (userId: string) => {
      calls.get += 1;
      return stored.get(userId) ?? { version: 0, changedAt: 0 };
    },
  };
};

/** The campaigns table as the access module reads it (windows by id), counting reads. */
const memoryCampaigns = () => {
  const stored = new Map<string, Window>();
  const calls = { windows: 0 };
  return {
    calls,
    set: (id: string, startsAt: number, endsAt: number) => stored.set(id, { startsAt, endsAt }),
    windows: async (ids: readonly string[]) => {
      calls.windows += 1;
      return new Map(ids.flatMap((id) => (stored.has(id) ? [[id, { ...stored.get(id)! }] as const] : [])));
    },
  };
};

const setup = ({ settleMs }: { settleMs?: number } = {}) => {
  let clock = 1_000_000;
  const relations = memoryRelations();
  const versions = memoryVersions();
  const campaigns = memoryCampaigns();
  const access = createAccess({
    relations,
    versions,
    campaigns,
    cache: createAccessCache({ now: () => clock }),
    now: () => clock,
    ...(settleMs === undefined ? {} : { settleMs }),
  });
  const relationReads = () => relations.calls.getMany + relations.calls.queryAll;
  return {
    relations,
    versions,
    campaigns,
    access,
    relationReads,
    advance: (ms: number) => {
      clock += ms;
    },
    clock: () => clock,
  };
};

const ann = caller('ann');

describe('device access', () => {
  it.each(['device-user', 'device-administrator', 'device-owner'] as const)(
    'a direct %s relation grants view, and names itself',
    async (type) => {
      const { relations, access } = setup();
      relations.add(type, 'd1', 'ann');
      expect(await access.forCaller(ann).check('device', 'd1')).toEqual({ allowed: true, via: type });
      // Only that device, only that user.
      expect((await access.forCaller(ann).check('device', 'd2')).allowed).toBe(false);
      expect((await access.forCaller(caller('bob')).check('device', 'd1')).allowed).toBe(false);
    },
  );

  it.each([
    ['device-user', 'view', true],
    ['device-user', 'manage', false],
    ['device-user', 'own', false],
    ['device-administrator', 'manage', true],
    ['device-administrator', 'own', false],
    ['device-owner', 'manage', true],
    ['device-owner', 'own', true],
  ] as const)('a %s may %s: %s', async (type, need, expected) => {
    const { relations, access } = setup();
    relations.add(type, 'd1', 'ann');
    expect((await access.forCaller(ann).check('device', 'd1', { need })).allowed).toBe(expected);
  });

  it.each(['campaign-user', 'campaign-manager'] as const)(
    'a %s of a campaign holding the device may view it, not manage or own it',
    async (type) => {
      const { relations, access } = setup();
      relations.add(type, 'c1', 'ann');
      relations.add('campaign-device', 'c1', 'd1');
      const checks = access.forCaller(ann);
      expect(await checks.check('device', 'd1')).toEqual({
        allowed: true,
        via: 'campaign-user:c1',
        campaignIds: ['c1'],
        windows: [],
      });
      expect((await checks.check('device', 'd1', { need: 'manage' })).allowed).toBe(false);
      expect((await checks.check('device', 'd1', { need: 'own' })).allowed).toBe(false);
    },
  );

  it('a campaign participant does not reach the campaign’s devices', async () => {
    const { relations, access } = setup();
    relations.add('campaign-participant', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(false);
  });

  it('membership of another campaign than the one holding the device grants nothing', async () => {
    const { relations, access } = setup();
    relations.add('campaign-user', 'c2', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(false);
  });

  it('confirms a campaign hold by id: a hold the lagging index still shows, but the table no longer has, denies', async () => {
    const { relations, access } = setup();
    relations.add('campaign-user', 'c1', 'ann');
    relations.lagIndex([
      {
        id: relationId('campaign-device', 'c1', 'd1'),
        type: 'campaign-device',
        referrerId: 'c1',
        referentId: 'd1',
        created: 1,
      },
    ]);
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(false);
  });

  it('the campaign route is not taken when the routes exclude it', async () => {
    const { relations, access } = setup();
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    expect((await access.forCaller(ann).check('device', 'd1', { routes: ['direct'] })).allowed).toBe(false);
  });

  it('the organization route denies: a manager of an organization holding the device does not reach it', async () => {
    const { relations, access } = setup();
    relations.add('organization-manager', 'o1', 'ann');
    relations.add('organization-user', 'o1', 'ann');
    relations.add('organization-device', 'o1', 'd1');
    expect(await access.forCaller(ann).check('device', 'd1')).toEqual({ allowed: false });
  });

  it("asking for the organization route alone denies, even to the device's owner", async () => {
    const { relations, access } = setup();
    relations.add('device-owner', 'd1', 'ann');
    relations.add('organization-device', 'o1', 'd1');
    relations.add('organization-user', 'o1', 'ann');
    expect((await access.forCaller(ann).check('device', 'd1', { routes: ['organization'] })).allowed).toBe(false);
    expect((await access.forCaller(ann).check('device', 'd1', { routes: ['direct'] })).allowed).toBe(true);
  });
});

describe('organization and campaign access', () => {
  it.each([
    ['organization', 'organization-user', 'view', true],
    ['organization', 'organization-participant', 'view', true],
    ['organization', 'organization-user', 'manage', false],
    ['organization', 'organization-manager', 'manage', true],
    ['campaign', 'campaign-user', 'view', true],
    ['campaign', 'campaign-user', 'manage', false],
    ['campaign', 'campaign-manager', 'manage', true],
    // A relation to the other kind of object with the same id grants nothing.
    ['campaign', 'organization-manager', 'view', false],
  ] as const)('%s through %s, need %s: %s', async (kind, type, need, expected) => {
    const { relations, access } = setup();
    relations.add(type, 'x1', 'ann');
    expect((await access.forCaller(ann).check(kind, 'x1', { need })).allowed).toBe(expected);
  });
});

describe('staff and guests', () => {
  it.each([['Employees'], ['Administrators']])('%s may do all, without a relation read', async (group) => {
    const { access, versions, relationReads } = setup();
    const checks = access.forCaller(caller('boss', [group]));
    expect(await checks.check('device', 'd1', { need: 'own' })).toEqual({ allowed: true, via: 'staff' });
    expect(await checks.require('organization', 'o1', { need: 'manage' })).toEqual({ allowed: true, via: 'staff' });
    expect(relationReads()).toBe(0);
    expect(versions.calls.get).toBe(0);
  });

  it('a distributor is not staff', async () => {
    const { access } = setup();
    expect((await access.forCaller(caller('dist', ['Distributors'])).check('device', 'd1')).allowed).toBe(false);
  });

  it('a guest is denied, and require answers 401', async () => {
    const { access, versions } = setup();
    expect(await access.forCaller(undefined).check('device', 'd1')).toEqual({ allowed: false });
    const error = await access
      .forCaller(undefined)
      .require('device', 'd1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Unauthorized);
    expect((error as Unauthorized).status).toBe(401);
    expect(versions.calls.get).toBe(0);
  });

  it('require answers 403 naming the kind of object to a signed-in caller without access', async () => {
    const { access } = setup();
    const checks = access.forCaller(ann);
    const error = await checks.require('device', 'd1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Forbidden);
    expect((error as Forbidden).status).toBe(403);
    expect((error as Forbidden).message).toBe('You do not have access to this device');
    await expect(checks.require('campaign', 'c1')).rejects.toThrow('You do not have access to this campaign');
  });

  it('require returns the decision when allowed', async () => {
    const { relations, access } = setup();
    relations.add('device-administrator', 'd1', 'ann');
    expect(await access.forCaller(ann).require('device', 'd1', { need: 'manage' })).toEqual({
      allowed: true,
      via: 'device-administrator',
    });
  });
});

describe('caching', () => {
  it('answers a repeated check at the same version from the cache, allowed or denied', async () => {
    const { relations, access, relationReads } = setup();
    relations.add('device-user', 'd1', 'ann');
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(true);
    expect((await access.forCaller(ann).check('device', 'd2')).allowed).toBe(false);
    const reads = relationReads();
    expect(reads).toBeGreaterThan(0);
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(true);
    expect((await access.forCaller(ann).check('device', 'd2')).allowed).toBe(false);
    expect(relationReads()).toBe(reads);
  });

  it('keys decisions by need and routes: a cached view does not answer manage', async () => {
    const { relations, access } = setup();
    relations.add('device-user', 'd1', 'ann');
    const checks = access.forCaller(ann);
    expect((await checks.check('device', 'd1')).allowed).toBe(true);
    expect((await checks.check('device', 'd1', { need: 'manage' })).allowed).toBe(false);
    expect((await checks.check('device', 'd1', { routes: ['organization'] })).allowed).toBe(false);
  });

  it('keys decisions by user: one user’s cached grant is not another’s', async () => {
    const { relations, access } = setup();
    relations.add('device-user', 'd1', 'ann');
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(true);
    expect((await access.forCaller(caller('bob')).check('device', 'd1')).allowed).toBe(false);
  });

  it('reads the version once per request, however many checks it makes', async () => {
    const { access, versions } = setup();
    const checks = access.forCaller(ann);
    await Promise.all([checks.check('device', 'd1'), checks.check('device', 'd2')]);
    await checks.check('organization', 'o1');
    await checks.require('device', 'd1').catch(() => undefined);
    expect(versions.calls.get).toBe(1);
    await access.forCaller(ann).check('device', 'd1');
    expect(versions.calls.get).toBe(2);
  });

  it('sees a revoked relation on the next request after the version bump', async () => {
    const { relations, versions, access, advance, clock } = setup();
    relations.add('device-user', 'd1', 'ann');
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd2');
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(true);
    expect((await access.forCaller(ann).check('device', 'd2')).allowed).toBe(true);

    relations.delete('device-user', 'd1', 'ann');
    relations.delete('campaign-user', 'c1', 'ann');
    // Without a bump the cache still trusts the old decisions: the bump is what invalidates them.
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(true);
    versions.bump('ann', clock());
    advance(10_000);
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(false);
    expect((await access.forCaller(ann).check('device', 'd2')).allowed).toBe(false);
  });

  it('recomputes a denial after a grant bumps the version', async () => {
    const { relations, versions, access, advance, clock } = setup();
    expect((await access.forCaller(ann).check('device', 'd1')).allowed).toBe(false);
    relations.add('device-owner', 'd1', 'ann');
    versions.bump('ann', clock());
    advance(10_000);
    expect(await access.forCaller(ann).check('device', 'd1')).toEqual({ allowed: true, via: 'device-owner' });
  });

  it('does not cache a decision made within settleMs of the last relation change', async () => {
    const { relations, versions, access, advance, clock, relationReads } = setup({ settleMs: 5_000 });
    relations.add('device-user', 'd1', 'ann');
    versions.bump('ann', clock());
    advance(4_999);
    await access.forCaller(ann).check('device', 'd1');
    const first = relationReads();
    await access.forCaller(ann).check('device', 'd1');
    // Still inside the window: computed afresh.
    expect(relationReads()).toBe(2 * first);
    advance(1);
    await access.forCaller(ann).check('device', 'd1');
    await access.forCaller(ann).check('device', 'd1');
    // Settled: computed once more, then cached.
    expect(relationReads()).toBe(3 * first);
  });

  it('caches at once when settleMs is 0 (the local stack)', async () => {
    const { relations, versions, access, clock, relationReads } = setup({ settleMs: 0 });
    relations.add('device-user', 'd1', 'ann');
    versions.bump('ann', clock());
    await access.forCaller(ann).check('device', 'd1');
    const first = relationReads();
    await access.forCaller(ann).check('device', 'd1');
    expect(relationReads()).toBe(first);
  });
});

describe('relations read ahead', () => {
  /** What the HTTP chain hands over after reading the keys: the relations that exist among them. */
  const readAheadOf = (keys: readonly { key: Record<string, unknown> }[], rows: Relation[]): ReadAhead => ({
    has: (read) => keys.some((key) => key.key.id === read.key.id),
    item: (read) => rows.find((row) => row.id === read.key.id),
  });

  it("names the caller's direct relation ids only while no decision is cached, and none for guests or staff", async () => {
    const { relations, access } = setup();
    relations.add('device-user', 'd1', 'ann');
    expect(access.readAhead(ann, 'device', 'd1').map((read) => read.key.id)).toEqual(
      ['device-user', 'device-administrator', 'device-owner'].map((type) =>
        relationId(type as RelationType, 'd1', 'ann'),
      ),
    );
    expect(access.readAhead(undefined, 'device', 'd1')).toEqual([]);
    expect(access.readAhead(caller('sam', ['Employees']), 'device', 'd1')).toEqual([]);
    await access.forCaller(ann).check('device', 'd1');
    expect(access.readAhead(ann, 'device', 'd1')).toEqual([]);
    expect(access.readAhead(ann, 'device', 'd2')).toHaveLength(3);
  });

  it('decides a miss from the relations read ahead, without reading them again, and caches the decision', async () => {
    const { relations, access, relationReads } = setup();
    relations.add('device-user', 'd1', 'ann');
    const keys = access.readAhead(ann, 'device', 'd1');
    const held = [
      {
        id: relationId('device-user', 'd1', 'ann'),
        type: 'device-user' as const,
        referrerId: 'd1',
        referentId: 'ann',
        created: 1,
      },
    ];
    expect(await access.forCaller(ann).check('device', 'd1', {}, readAheadOf(keys, held))).toEqual({
      allowed: true,
      via: 'device-user',
    });
    expect(relationReads()).toBe(0);
    expect(await access.forCaller(ann).check('device', 'd1')).toEqual({ allowed: true, via: 'device-user' });
    expect(relationReads()).toBe(0);
  });

  it('still takes the campaign route when the relations read ahead grant nothing', async () => {
    const { relations, access } = setup();
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    const keys = access.readAhead(ann, 'device', 'd1');
    expect((await access.forCaller(ann).check('device', 'd1', {}, readAheadOf(keys, []))).via).toBe('campaign-user:c1');
  });
});

describe('campaign data windows', () => {
  it("a decision through one campaign carries exactly that campaign's window", async () => {
    const { relations, campaigns, access } = setup();
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    campaigns.set('c1', 100, 200);
    expect(await access.forCaller(ann).check('device', 'd1')).toEqual({
      allowed: true,
      via: 'campaign-user:c1',
      campaignIds: ['c1'],
      windows: [{ startsAt: 100, endsAt: 200 }],
    });
  });

  it('through several campaigns: the sorted union of their windows, every granting campaign named', async () => {
    const { relations, campaigns, access } = setup();
    for (const [c, start, end] of [
      ['c3', 500, 600],
      ['c1', 100, 200],
      ['c2', 150, 300],
    ] as const) {
      relations.add('campaign-user', c, 'ann');
      relations.add('campaign-device', c, 'd1');
      campaigns.set(c, start, end);
    }
    // c4 holds the device but ann is only a participant there: its window is not hers.
    relations.add('campaign-participant', 'c4', 'ann');
    relations.add('campaign-device', 'c4', 'd1');
    campaigns.set('c4', 1000, 2000);
    const decision = await access.forCaller(ann).check('device', 'd1');
    expect(decision.campaignIds).toEqual(['c1', 'c2', 'c3']);
    expect(decision.windows).toEqual([
      { startsAt: 100, endsAt: 300 },
      { startsAt: 500, endsAt: 600 },
    ]);
  });

  it('a campaign without a record still lets the device be seen, but reaches no data', async () => {
    const { relations, access } = setup();
    relations.add('campaign-manager', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    const decision = await access.forCaller(ann).check('device', 'd1');
    expect(decision.allowed).toBe(true);
    expect(decision.windows).toEqual([]);
  });

  it('a direct device relation wins over the campaign path and carries no window (unlimited)', async () => {
    const { relations, campaigns, access } = setup();
    relations.add('device-owner', 'd1', 'ann');
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    campaigns.set('c1', 100, 200);
    expect(await access.forCaller(ann).check('device', 'd1')).toEqual({ allowed: true, via: 'device-owner' });
    expect(campaigns.calls.windows).toBe(0);
  });

  it('staff carry no window', async () => {
    const { access } = setup();
    expect(await access.forCaller(caller('eve', ['Employees'])).check('device', 'd1')).toEqual({
      allowed: true,
      via: 'staff',
    });
  });

  it('a campaign membership check (kind campaign) carries no window', async () => {
    const { relations, campaigns, access } = setup();
    relations.add('campaign-user', 'c1', 'ann');
    campaigns.set('c1', 100, 200);
    expect(await access.forCaller(ann).check('campaign', 'c1')).toEqual({ allowed: true, via: 'campaign-user' });
  });

  it('caches the windows with the decision, and sees a changed window on the next request after a bump', async () => {
    const { relations, campaigns, versions, access, advance, clock } = setup();
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    campaigns.set('c1', 100, 200);
    advance(10_000);
    expect((await access.forCaller(ann).check('device', 'd1')).windows).toEqual([{ startsAt: 100, endsAt: 200 }]);
    expect(campaigns.calls.windows).toBe(1);

    campaigns.set('c1', 100, 400);
    // Cached for the unchanged version: no campaign read, the old window.
    expect((await access.forCaller(ann).check('device', 'd1')).windows).toEqual([{ startsAt: 100, endsAt: 200 }]);
    expect(campaigns.calls.windows).toBe(1);

    // The campaigns area raises its members' versions when it changes a window.
    versions.bump('ann', clock());
    advance(10_000);
    expect((await access.forCaller(ann).check('device', 'd1')).windows).toEqual([{ startsAt: 100, endsAt: 400 }]);
    expect(campaigns.calls.windows).toBe(2);
  });

  it('a campaign without a record grants sight of the device but an empty window (no data)', async () => {
    const relations = memoryRelations();
    relations.add('campaign-user', 'c1', 'ann');
    relations.add('campaign-device', 'c1', 'd1');
    const access = createAccess({
      relations,
      versions: memoryVersions(),
      campaigns: { windows: async () => new Map() },
      cache: createAccessCache(),
      now: () => 1,
    });
    expect(await access.forCaller(ann).check('device', 'd1')).toMatchObject({ allowed: true, windows: [] });
  });
});
