import type { DomainEvent, RelationChanged } from '../../../shared/contracts/events';
import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { callerOf as caller } from '../../../test/support/callers';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import { createAccess } from '../../_shared/access/access';
import { createAccessCache } from '../../_shared/access/access-cache';
import { hashSecret, parseToken, secretMatches } from '../../_shared/devices/credential-token';
import { Conflict, Forbidden, NotFound, ServiceUnavailable, Unauthorized } from '../../_shared/errors';
import { createRelationEffects } from '../../_shared/relations/relation-effects';
import type { IndexQuery, RelationSide } from '../../_shared/relations/relation-table';
import { normalizeClaimCode } from './claim-code';
import { createCredentials, MAX_CREDENTIALS_PER_DEVICE, revokeAllCredentials } from './credentials';
import { ONLINE_WINDOW_MS, type StoredDevice, statusOf } from './device-model';
import { createDevices, type DevicesDeps } from './devices';
import type { DeviceChanges, StoredCredential } from './ports';

type Key = Record<string, unknown>;

const staff = caller('boss', ['Employees']);
const distributor = caller('dist', ['Distributors']);
const ann = caller('ann');
const bob = caller('bob');
const cat = caller('cat');

const pageOf = <T>(items: T[], limit: number, startKey: Key | undefined) => {
  const start = typeof startKey?.at === 'number' ? startKey.at : 0;
  const end = start + limit;
  return { items: items.slice(start, end), lastKey: end < items.length ? { at: end } : undefined };
};

/** The devices table in memory, with the store's conditions. */
const memoryDevices = () => {
  const rows = new Map<string, StoredDevice>();
  const write = (id: string, ok: (d: StoredDevice) => boolean, change: (d: StoredDevice) => StoredDevice) => {
    const device = rows.get(id);
    if (!device || !ok(device)) return undefined;
    const next = change(structuredClone(device));
    rows.set(id, next);
    return structuredClone(next);
  };
  const store = {
    rows,
    productLines: ['sd1', 'al30', 'al60', 'al80'] as const,
    create: async (device: StoredDevice) => {
      if (rows.has(device.id)) return false;
      rows.set(device.id, structuredClone(device));
      return true;
    },
    get: async (id: string) => (rows.has(id) ? structuredClone(rows.get(id)!) : undefined),
    getMany: async (ids: readonly string[]) =>
      ids.flatMap((id) => (rows.has(id) ? [structuredClone(rows.get(id)!)] : [])),
    claim: async (id: string, ownerId: string, at: number) =>
      write(
        id,
        (d) => d.ownerId === undefined && d.state === 'provisioned',
        (d) => ({ ...d, ownerId, state: 'active', claimed: at, updated: at }),
      ),
    unclaim: async (id: string, ownerId: string, at: number) =>
      write(
        id,
        (d) => d.ownerId === ownerId,
        ({ ownerId: _o, claimed: _c, ...d }) => ({ ...d, state: 'provisioned', updated: at }),
      ),
    setOwner: async (id: string, from: string, to: string, at: number) =>
      write(
        id,
        (d) => d.ownerId === from,
        (d) => ({ ...d, ownerId: to, updated: at }),
      ),
    change: async (id: string, changes: DeviceChanges, at: number, allowRetired: boolean) =>
      write(
        id,
        (d) => allowRetired || d.state !== 'retired',
        (d) => {
          const next: Record<string, unknown> = { ...d, updated: at };
          for (const [field, value] of Object.entries(changes)) {
            if (value === null) delete next[field];
            else if (value !== undefined) next[field] = value;
          }
          return next as unknown as StoredDevice;
        },
      ),
    retire: async (id: string, at: number) =>
      write(
        id,
        (d) => d.state !== 'retired',
        (d) => ({ ...d, state: 'retired', retired: at, updated: at }),
      ),
    queryProductLine: async (
      productLine: string,
      { limit, startKey, filter }: { limit: number; startKey?: Key; filter?: 'located' | 'publicMapped' },
    ) =>
      pageOf(
        [...rows.values()]
          .filter((d) => d.productLine === productLine)
          .filter((d) => filter !== 'located' || d.location !== undefined)
          .filter(
            (d) =>
              filter !== 'publicMapped' ||
              (d.location !== undefined &&
                d.dataVisibility === 'public' &&
                d.locationPrivacy !== 'hidden' &&
                d.state !== 'retired'),
          )
          .sort((a, b) => b.created - a.created)
          .map((d) => structuredClone(d)),
        limit,
        startKey,
      ),
  };
  return store;
};

const memoryRelations = () => {
  const rows = new Map<string, Relation>();
  const queryIndex = async (side: RelationSide, id: string, { type, limit, startKey }: IndexQuery) =>
    pageOf(
      [...rows.values()]
        .filter((r) => (side === 'referent' ? r.referentId : r.referrerId) === id && (!type || r.type === type))
        .sort((a, b) => a.id.localeCompare(b.id)),
      limit,
      startKey,
    );
  return {
    rows,
    failCreate: false,
    keyRead: (id: string) => ({ table: 'relations', key: { id }, consistent: true }),
    getMany: async (ids: readonly string[]) => [...new Set(ids)].flatMap((id) => (rows.has(id) ? [rows.get(id)!] : [])),
    queryIndex,
    queryAll: async (side: RelationSide, id: string, types: readonly string[]) =>
      (await queryIndex(side, id, { limit: 1000 })).items.filter((r) => types.includes(r.type)),
    create: async function (this: { failCreate: boolean }, relation: Relation) {
      if (this.failCreate) throw new Error('relations table down');
      if (rows.has(relation.id)) return false;
      rows.set(relation.id, relation);
      return true;
    },
    put: async (relation: Relation) => {
      rows.set(relation.id, relation);
    },
    remove: async (id: string) => {
      const relation = rows.get(id);
      rows.delete(id);
      return relation;
    },
  };
};

const memoryCredentials = () => {
  const rows = new Map<string, StoredCredential>();
  const listed = ({ secretHash: _h, ...c }: StoredCredential) => c;
  const byDevice = (deviceId: string) => [...rows.values()].filter((c) => c.deviceId === deviceId).map(listed);
  return {
    rows,
    put: async (credential: StoredCredential) => {
      rows.set(credential.credentialId, credential);
    },
    page: async (deviceId: string, limit: number, startKey?: Key) => pageOf(byDevice(deviceId), limit, startKey),
    listAll: async (deviceId: string) => byDevice(deviceId),
    remove: async (deviceId: string, credentialId: string) => {
      const found = rows.get(credentialId);
      if (!found || found.deviceId !== deviceId) return undefined;
      rows.delete(credentialId);
      return listed(found);
    },
  };
};

const setup = () => {
  let clock = 1_000_000;
  let counter = 0;
  const versions = new Map<string, number>();
  const devices = memoryDevices();
  const relations = memoryRelations();
  const credentialRows = memoryCredentials();
  const events: DomainEvent[] = [];
  const users = new Set(['ann', 'bob', 'cat', 'boss']);
  const now = () => clock;
  const deps: DevicesDeps = {
    log: silentLog,
    devices,
    revokeCredentials: (id) => revokeAllCredentials(credentialRows, id),
    users: { exists: async (id) => users.has(id) },
    relations: relations as unknown as DevicesDeps['relations'],
    effects: createRelationEffects({
      versions: {
        bump: async (ids) => {
          for (const id of ids) versions.set(id, (versions.get(id) ?? 0) + 1);
        },
      },
      events: {
        publish: async (published) => {
          events.push(...published);
        },
      },
      now,
      newId: () => `event-${++counter}`,
    }),
    access: createAccess({
      relations,
      versions: { get: async (id) => ({ version: versions.get(id) ?? 0, changedAt: 0 }) },
      campaigns: { windows: async () => new Map() },
      cache: createAccessCache(),
      now,
    }),
    now,
    newClaimCode: () => `CODE-${String(++counter).padStart(4, '0')}-ABCD`,
  };
  const service = createDevices(deps);
  const credentials = createCredentials({
    devices: service,
    store: credentialRows,
    now,
    newCredentialId: () => `dc_cred${++counter}`,
    newSecret: () => `secret-${++counter}-${'x'.repeat(40)}`,
  });
  const tick = (ms: number) => {
    clock += ms;
  };
  const registered = async (serial = `SN-${++counter}`, extra: Partial<StoredDevice> = {}) => {
    const { device, claimCode } = await service.register(distributor, {
      serial,
      productLine: 'al30',
      model: 'AL-30 v2',
      firmwareVersion: '1.0.0',
    });
    if (Object.keys(extra).length) devices.rows.set(device.id, { ...devices.rows.get(device.id)!, ...extra });
    return { id: device.id, serial, claimCode };
  };
  const owned = async (owner = ann, extra: Partial<StoredDevice> = {}) => {
    const r = await registered(undefined, extra);
    await service.claim(owner, { serial: r.serial, claimCode: r.claimCode });
    return r;
  };
  return { service, credentials, devices, relations, credentialRows, events, users, tick, registered, owned };
};

describe('registration', () => {
  it('derives the id from the serial, starts provisioned and private, and answers the claim code once', async () => {
    const { service, devices } = setup();
    const { device, claimCode } = await service.register(distributor, {
      serial: 'AL30-0042',
      productLine: 'al30',
      model: 'AL-30',
      firmwareVersion: '2.1.0',
    });
    expect(device).toMatchObject({
      id: 'dev-al30-0042',
      serial: 'AL30-0042',
      name: 'AL30-0042',
      state: 'provisioned',
      status: 'provisioned',
      dataVisibility: 'private',
      locationPrivacy: 'approximate',
      access: 'none',
    });
    expect(claimCode).toMatch(/^CODE-/);
    const stored = devices.rows.get('dev-al30-0042')!;
    expect(JSON.stringify(stored)).not.toContain(claimCode);
    expect(stored.registeredBy).toBe('dist');
  });

  it('refuses a second registration of a serial with 409', async () => {
    const { service } = setup();
    const body = { serial: 'SD1-7', productLine: 'sd1' as const, model: 'SD-1', firmwareVersion: '1.0' };
    await service.register(staff, body);
    const error = await rejectionOf(service.register(staff, body));
    expect(error).toEqual(new Conflict(MESSAGES.deviceSerialRegistered('SD1-7')));
  });
});

describe('claiming', () => {
  it('makes the claimer owner: ownerId, the device-owner relation, an access bump and a relation.changed event', async () => {
    const { service, relations, events, registered } = setup();
    const { id, serial, claimCode } = await registered();
    const device = await service.claim(bob, { serial, claimCode: claimCode.toLowerCase().replace(/-/g, ' ') });
    expect(device).toMatchObject({ id, ownerId: 'bob', state: 'active', access: 'own' });
    expect(relations.rows.has(relationId('device-owner', id, 'bob'))).toBe(true);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'relation.changed', change: 'added', actorId: 'bob' }) as RelationChanged,
    ]);
    expect(await service.get(bob, id)).toMatchObject({ access: 'own' });
  });

  it('refuses a second claim with 409, even with the right code', async () => {
    const { service, registered } = setup();
    const { serial, claimCode } = await registered();
    await service.claim(ann, { serial, claimCode });
    expect(await rejectionOf(service.claim(bob, { serial, claimCode }))).toEqual(
      new Conflict(MESSAGES.deviceAlreadyClaimed),
    );
    expect(await rejectionOf(service.claim(ann, { serial, claimCode }))).toEqual(
      new Conflict(MESSAGES.deviceAlreadyClaimed),
    );
  });

  it('answers a wrong code and an unknown serial alike, before telling whether it was claimed', async () => {
    const { service, registered } = setup();
    const { serial, claimCode } = await registered();
    await service.claim(ann, { serial, claimCode });
    const refused = new Forbidden(MESSAGES.deviceClaimRefused);
    expect(await rejectionOf(service.claim(bob, { serial, claimCode: 'WRONG-CODE' }))).toEqual(refused);
    expect(await rejectionOf(service.claim(bob, { serial: 'NO-SUCH-SERIAL', claimCode }))).toEqual(refused);
  });

  it('lets only one of two racing claims win', async () => {
    const { service, devices, registered } = setup();
    const { serial, claimCode } = await registered();
    const realClaim = devices.claim;
    // The second claim read the device before the first one wrote.
    devices.claim = async (id, owner, at) => {
      await realClaim(id, 'someone-faster', at);
      return realClaim(id, owner, at);
    };
    expect(await rejectionOf(service.claim(bob, { serial, claimCode }))).toEqual(
      new Conflict(MESSAGES.deviceAlreadyClaimed),
    );
  });

  it('takes a claim back whole when its relation cannot be written', async () => {
    const { service, devices, relations, registered } = setup();
    const { id, serial, claimCode } = await registered();
    relations.failCreate = true;
    expect(await rejectionOf(service.claim(bob, { serial, claimCode }))).toEqual(
      new ServiceUnavailable(MESSAGES.changeUndone),
    );
    expect(devices.rows.get(id)).toMatchObject({ state: 'provisioned' });
    expect(devices.rows.get(id)!.ownerId).toBeUndefined();
    relations.failCreate = false;
    expect(await service.claim(bob, { serial, claimCode })).toMatchObject({ ownerId: 'bob' });
  });

  it('refuses a retired device', async () => {
    const { service, registered } = setup();
    const { id, serial, claimCode } = await registered();
    await service.retire(staff, id);
    expect(await rejectionOf(service.claim(bob, { serial, claimCode }))).toEqual(new Conflict(MESSAGES.deviceRetired));
  });

  it('reads codes as people type them', () => {
    expect(normalizeClaimCode(' abcd-efgh o1l ')).toBe('ABCDEFGH011');
  });
});

describe('reading', () => {
  it('shows a public device to anyone, its approximate location rounded for all but managers', async () => {
    const { service, owned } = setup();
    const { id } = await owned(ann, {
      dataVisibility: 'public',
      location: { lat: 47.612345, lon: -122.334567 },
      locationPrivacy: 'approximate',
    });
    expect(await service.get(undefined, id)).toMatchObject({
      access: 'none',
      location: { lat: 47.61, lon: -122.33 },
      locationApproximate: true,
    });
    expect(await service.get(ann, id)).toMatchObject({ access: 'own', location: { lat: 47.612345, lon: -122.334567 } });
    expect((await service.get(staff, id)).location).toEqual({ lat: 47.612345, lon: -122.334567 });
  });

  it('hides a hidden location from everyone but managers', async () => {
    const { service, owned, relations } = setup();
    const { id } = await owned(ann, { location: { lat: 1, lon: 2 }, locationPrivacy: 'hidden' });
    await relations.put({
      id: relationId('device-user', id, 'bob'),
      type: 'device-user',
      referrerId: id,
      referentId: 'bob',
      created: 1,
    });
    expect((await service.get(bob, id)).location).toBeUndefined();
    expect((await service.get(ann, id)).location).toEqual({ lat: 1, lon: 2 });
  });

  it('refuses a private device to a guest (401) and a stranger (403); an unknown id is 404', async () => {
    const { service, owned } = setup();
    const { id } = await owned();
    expect(await rejectionOf(service.get(undefined, id))).toBeInstanceOf(Unauthorized);
    expect(await rejectionOf(service.get(bob, id))).toEqual(new Forbidden(MESSAGES.accessDenied('device')));
    expect(await rejectionOf(service.get(bob, 'dev-none'))).toEqual(new NotFound(MESSAGES.deviceNotFound('dev-none')));
  });

  it('derives the status from the state and last seen', () => {
    expect(statusOf({ state: 'provisioned' }, 10)).toBe('provisioned');
    expect(statusOf({ state: 'active' }, 10)).toBe('provisioned');
    expect(statusOf({ state: 'active', lastSeen: 0 }, ONLINE_WINDOW_MS)).toBe('online');
    expect(statusOf({ state: 'active', lastSeen: 0 }, ONLINE_WINDOW_MS + 1)).toBe('offline');
    expect(statusOf({ state: 'retired', lastSeen: 0 }, 1)).toBe('retired');
  });

  it('lists my devices once each, with my strongest role, paged', async () => {
    const { service, owned, relations } = setup();
    const a = await owned(ann);
    const b = await owned(bob);
    const c = await owned(bob);
    const put = (type: Relation['type'], deviceId: string, userId: string) =>
      relations.put({
        id: relationId(type, deviceId, userId),
        type,
        referrerId: deviceId,
        referentId: userId,
        created: 1,
      });
    await put('device-administrator', b.id, 'ann');
    await put('device-user', c.id, 'ann');
    // Owner and also listed as user: once, as owner.
    await put('device-user', a.id, 'ann');
    await put('device-user', 'dev-without-record', 'ann');

    const first = await service.listMine(ann, { limit: 2 });
    const rest = await service.listMine(ann, { limit: 2, cursor: first.nextCursor });
    const all = [...first.items, ...rest.items];
    expect(all.map((d) => [d.id, d.role, d.access])).toEqual([
      [a.id, 'device-owner', 'own'],
      [b.id, 'device-administrator', 'manage'],
      [c.id, 'device-user', 'view'],
    ]);
  });

  it('lists every device for staff, by product line', async () => {
    const { service, registered } = setup();
    await registered();
    await registered();
    expect((await service.listAll({ limit: 10 })).items).toHaveLength(2);
    expect((await service.listAll({ limit: 10, productLine: 'sd1' })).items).toHaveLength(0);
  });
});

describe('the map', () => {
  const located = (lat: number, extra: Partial<StoredDevice> = {}): Partial<StoredDevice> => ({
    location: { lat, lon: 10.123456 },
    locationPrivacy: 'approximate',
    ...extra,
  });

  it('shows a guest the public located devices only, approximate where chosen', async () => {
    const { service, owned, registered } = setup();
    await owned(ann, located(1, { dataVisibility: 'public' }));
    await owned(ann, located(2, { dataVisibility: 'public', locationPrivacy: 'hidden' }));
    await owned(ann, located(3));
    await registered(undefined, { dataVisibility: 'public' });
    const { items } = await service.map(undefined, { limit: 10, scope: 'visible' });
    expect(items).toEqual([expect.objectContaining({ location: { lat: 1, lon: 10.12 }, locationApproximate: true })]);
  });

  it('shows a signed-in caller their own devices first, then public ones, each once, exact where they manage', async () => {
    const { service, owned } = setup();
    const mine = await owned(ann, located(1));
    const minePublic = await owned(ann, located(2, { dataVisibility: 'public' }));
    const theirs = await owned(bob, located(3, { dataVisibility: 'public' }));
    await owned(bob, located(4));
    const { items } = await service.map(ann, { limit: 1, scope: 'visible' });
    const pages = [items];
    let cursor = (await service.map(ann, { limit: 1, scope: 'visible' })).nextCursor;
    while (cursor) {
      const page = await service.map(ann, { limit: 1, scope: 'visible', cursor });
      pages.push(page.items);
      cursor = page.nextCursor;
    }
    const all = pages.flat();
    expect(all.map((d) => d.id).sort()).toEqual([mine.id, minePublic.id, theirs.id].sort());
    expect(all[0]!.id).toBe(mine.id);
    expect(all.find((d) => d.id === minePublic.id)!.location).toEqual({ lat: 2, lon: 10.123456 });
    expect(all.find((d) => d.id === theirs.id)!.locationApproximate).toBe(true);
  });

  it('keeps `mine` for signed-in callers and `all` for staff', async () => {
    const { service, owned } = setup();
    await owned(ann, located(1));
    expect(await rejectionOf(service.map(undefined, { limit: 5, scope: 'mine' }))).toBeInstanceOf(Unauthorized);
    expect(await rejectionOf(service.map(ann, { limit: 5, scope: 'all' }))).toEqual(
      new Forbidden(MESSAGES.deviceMapScopeStaff),
    );
    expect((await service.map(staff, { limit: 5, scope: 'all' })).items).toHaveLength(1);
    expect((await service.map(ann, { limit: 5, scope: 'mine' })).items).toHaveLength(1);
  });
});

describe('changes', () => {
  it('lets managers change name, location and visibility; only the owner or staff the firmware', async () => {
    const { service, owned, relations } = setup();
    const { id } = await owned(ann);
    await relations.put({
      id: relationId('device-administrator', id, 'bob'),
      type: 'device-administrator',
      referrerId: id,
      referentId: 'bob',
      created: 1,
    });
    expect(
      await service.update(bob, id, { name: 'Roof', location: { lat: 1, lon: 2 }, dataVisibility: 'public' }),
    ).toMatchObject({ name: 'Roof', location: { lat: 1, lon: 2 }, dataVisibility: 'public', access: 'manage' });
    expect(await rejectionOf(service.update(bob, id, { firmwareVersion: '2.0.0' }))).toEqual(
      new Forbidden(MESSAGES.deviceFirmwareOwnerOnly),
    );
    expect(await service.update(ann, id, { firmwareVersion: '2.0.0', location: null })).toMatchObject({
      firmwareVersion: '2.0.0',
    });
    expect((await service.get(ann, id)).location).toBeUndefined();
    expect(await rejectionOf(service.update(cat, id, { name: 'x' }))).toBeInstanceOf(Forbidden);
  });

  it('transfers ownership: the old owner loses it at once, the new one gains it, both are told', async () => {
    const { service, owned, relations, events } = setup();
    const { id } = await owned(ann);
    events.length = 0;
    expect(await service.transfer(ann, id, 'bob')).toMatchObject({ ownerId: 'bob', access: 'none' });
    expect(relations.rows.has(relationId('device-owner', id, 'ann'))).toBe(false);
    expect(relations.rows.has(relationId('device-owner', id, 'bob'))).toBe(true);
    expect(events.map((e) => [(e as RelationChanged).change, (e as RelationChanged).relation.referentId])).toEqual([
      ['removed', 'ann'],
      ['added', 'bob'],
    ]);
    expect(await rejectionOf(service.update(ann, id, { name: 'mine?' }))).toBeInstanceOf(Forbidden);
    expect(await service.update(bob, id, { name: 'mine' })).toMatchObject({ name: 'mine', access: 'own' });
  });

  it('refuses a transfer by a non-owner, to an unknown user, to the owner, and of an unclaimed device', async () => {
    const { service, owned, registered, relations } = setup();
    const { id } = await owned(ann);
    await relations.put({
      id: relationId('device-administrator', id, 'bob'),
      type: 'device-administrator',
      referrerId: id,
      referentId: 'bob',
      created: 1,
    });
    expect(await rejectionOf(service.transfer(bob, id, 'cat'))).toEqual(new Forbidden(MESSAGES.deviceOwnerOnly));
    expect(await rejectionOf(service.transfer(ann, id, 'ghost'))).toEqual(
      new NotFound(MESSAGES.deviceNewOwnerMissing('ghost')),
    );
    expect(await rejectionOf(service.transfer(ann, id, 'ann'))).toEqual(new Conflict(MESSAGES.deviceAlreadyOwner));
    const unclaimed = await registered();
    expect(await rejectionOf(service.transfer(staff, unclaimed.id, 'bob'))).toEqual(
      new Conflict(MESSAGES.deviceNotClaimed),
    );
    expect(await service.transfer(staff, id, 'cat')).toMatchObject({ ownerId: 'cat', access: 'own' });
  });

  it('retires: credentials revoked, changes refused except by staff, relations kept', async () => {
    const { service, credentials, credentialRows, owned, relations } = setup();
    const { id } = await owned(ann);
    await credentials.create(ann, id);
    expect(await service.retire(ann, id)).toMatchObject({ state: 'retired', status: 'retired' });
    expect(credentialRows.rows.size).toBe(0);
    expect(relations.rows.has(relationId('device-owner', id, 'ann'))).toBe(true);
    expect(await rejectionOf(service.update(ann, id, { name: 'x' }))).toEqual(
      new Conflict(MESSAGES.deviceRetiredChange),
    );
    expect(await rejectionOf(service.transfer(ann, id, 'bob'))).toEqual(new Conflict(MESSAGES.deviceRetiredChange));
    expect(await rejectionOf(service.retire(ann, id))).toEqual(new Conflict(MESSAGES.deviceAlreadyRetired));
    expect(await rejectionOf(credentials.create(ann, id))).toEqual(new Conflict(MESSAGES.deviceRetired));
    expect(await service.update(staff, id, { name: 'archived' })).toMatchObject({ name: 'archived' });
  });

  it('lets only the owner or staff retire', async () => {
    const { service, owned } = setup();
    const { id } = await owned(ann);
    expect(await rejectionOf(service.retire(bob, id))).toEqual(new Forbidden(MESSAGES.deviceOwnerOnly));
  });
});

describe('ingress credentials', () => {
  it('answers the secret once, stores only its hash, and lists without it', async () => {
    const { credentials, credentialRows, owned } = setup();
    const { id } = await owned(ann);
    const made = await credentials.create(ann, id);
    expect(parseToken(made.token)).toEqual({ credentialId: made.credentialId, secret: made.secret });
    const stored = credentialRows.rows.get(made.credentialId)!;
    expect(stored.secretHash).toBe(hashSecret(made.secret));
    expect(JSON.stringify(stored)).not.toContain(made.secret);
    expect(secretMatches(made.secret, stored.secretHash)).toBe(true);
    const { items } = await credentials.list(ann, id, { limit: 10 });
    expect(items).toEqual([{ credentialId: made.credentialId, deviceId: id, created: made.created, createdBy: 'ann' }]);
  });

  it('rotates: one new credential, the old ones gone', async () => {
    const { credentials, credentialRows, owned } = setup();
    const { id } = await owned(ann);
    const first = await credentials.create(ann, id);
    await credentials.create(ann, id);
    const fresh = await credentials.rotate(ann, id);
    expect([...credentialRows.rows.keys()]).toEqual([fresh.credentialId]);
    expect(fresh.credentialId).not.toBe(first.credentialId);
  });

  it('caps the credentials of a device, revokes one by id, and refuses others’ devices', async () => {
    const { credentials, owned } = setup();
    const { id } = await owned(ann);
    const other = await owned(bob);
    const made = [];
    for (let i = 0; i < MAX_CREDENTIALS_PER_DEVICE; i += 1) made.push(await credentials.create(ann, id));
    expect(await rejectionOf(credentials.create(ann, id))).toEqual(
      new Conflict(MESSAGES.deviceCredentialLimit(MAX_CREDENTIALS_PER_DEVICE)),
    );
    await credentials.revoke(ann, id, made[0]!.credentialId);
    expect(await rejectionOf(credentials.revoke(ann, id, made[0]!.credentialId))).toBeInstanceOf(NotFound);
    expect(await rejectionOf(credentials.revoke(bob, other.id, made[1]!.credentialId))).toBeInstanceOf(NotFound);
    expect(await rejectionOf(credentials.create(bob, id))).toEqual(new Forbidden(MESSAGES.accessDenied('device')));
  });
});
