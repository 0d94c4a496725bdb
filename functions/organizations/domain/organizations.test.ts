import { LOGO_MAX_BYTES } from '../../../shared/contracts/organizations';
import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import { type RelationType, relationId } from '../../../shared/relations/relation-types';
import { callerOf } from '../../../test/support/callers';
import { recordingLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import { createAccess } from '../../_shared/access/access';
import { createAccessCache } from '../../_shared/access/access-cache';
import type { RelationChange } from '../../_shared/relations/relation-effects';
import { createOrganizations, type OrganizationsDeps } from './organizations';
import type { StoredOrganization } from './ports';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const HTML = Uint8Array.from([...'<html><script>alert(1)</script>'].map((c) => c.charCodeAt(0)));

type Key = Record<string, unknown>;

/** The relations table as this area uses it; pages of the index continue from `{ at }`. */
const memoryRelations = () => {
  const rows = new Map<string, Relation>();
  let failCreate = false;
  const table: OrganizationsDeps['table'] = {
    getMany: async (ids) => [...new Set(ids)].flatMap((id) => rows.get(id) ?? []),
    create: async (relation) => {
      if (failCreate) throw new Error('relations table unavailable');
      if (rows.has(relation.id)) return false;
      rows.set(relation.id, relation);
      return true;
    },
    remove: async (id) => {
      const relation = rows.get(id);
      rows.delete(id);
      return relation;
    },
    queryIndex: async (side, id, { type, limit, startKey }) => {
      const all = [...rows.values()]
        .filter((r) => r[`${side}Id`] === id && (type === undefined || r.type === type))
        .sort((a, b) => a.id.localeCompare(b.id));
      const at = (startKey?.at as number | undefined) ?? 0;
      const items = all.slice(at, at + limit);
      return { items, lastKey: at + limit < all.length ? ({ at: at + limit } as Key) : undefined };
    },
    queryAll: async (side, id, types) =>
      types.flatMap((type) => [...rows.values()].filter((r) => r[`${side}Id`] === id && r.type === type)),
  };
  return {
    table,
    rows,
    add: (type: RelationType, referrerId: string, referentId: string) => {
      const id = relationId(type, referrerId, referentId);
      rows.set(id, { id, type, referrerId, referentId, created: 1 });
    },
    failCreates: () => {
      failCreate = true;
    },
  };
};

const memoryStore = () => {
  const items = new Map<string, StoredOrganization>();
  const store: OrganizationsDeps['store'] = {
    get: async (id) => structuredClone(items.get(id)),
    getMany: async (ids) => [...new Set(ids)].flatMap((id) => items.get(id) ?? []),
    create: async (organization) => {
      if (items.has(organization.id)) return false;
      items.set(organization.id, structuredClone(organization));
      return true;
    },
    save: async (organization, readVersion) => {
      if (items.get(organization.id)?.updated !== readVersion) return false;
      items.set(organization.id, structuredClone(organization));
      return true;
    },
    remove: async (id) => items.delete(id),
    scan: async (startKey, limit) => {
      const all = [...items.values()];
      const at = (startKey?.at as number | undefined) ?? 0;
      return { items: all.slice(at, at + limit), lastKey: at + limit < all.length ? { at: at + limit } : undefined };
    },
  };
  return { store, items };
};

/** The logo bucket: objects with the Content-Type they were put with; URLs name what they sign. */
const memoryLogos = () => {
  const objects = new Map<string, { body: Uint8Array; contentType: string }>();
  const logos: OrganizationsDeps['logos'] = {
    uploadUrl: async (key, contentType, size, seconds) => `put:${key}:${contentType}:${size}:${seconds}`,
    readUrl: async (key, seconds) => `get:${key}:${seconds}`,
    head: async (key) => {
      const object = objects.get(key);
      return object ? { size: object.body.length, contentType: object.contentType } : undefined;
    },
    readStart: async (key, bytes) => objects.get(key)!.body.slice(0, bytes),
    remove: async (key) => {
      objects.delete(key);
    },
    removeAll: async (prefix) => {
      const keys = [...objects.keys()].filter((key) => key.startsWith(prefix));
      for (const key of keys) objects.delete(key);
      return keys.length;
    },
  };
  return {
    logos,
    objects,
    put: (key: string, body: Uint8Array, contentType: string) => objects.set(key, { body, contentType }),
  };
};

const setup = () => {
  let clock = 1_000;
  let ids = 0;
  const relations = memoryRelations();
  const { store, items } = memoryStore();
  const bucket = memoryLogos();
  const bumped: string[][] = [];
  const published: { changes: RelationChange[]; actor: string }[] = [];
  const { log, lines: logged } = recordingLog();
  const deps: OrganizationsDeps = {
    log,
    store,
    logos: bucket.logos,
    table: relations.table,
    effects: {
      bump: async (changed) => {
        bumped.push(changed.map((r) => r.referentId));
      },
      publish: async (changes, actor) => {
        published.push({ changes: [...changes], actor });
      },
    },
    access: createAccess({
      relations: { ...relations.table, keyRead: (id) => ({ table: 'relations', key: { id }, consistent: true }) },
      versions: { get: async () => ({ version: 0, changedAt: 0 }) },
      campaigns: { windows: async () => new Map() },
      cache: createAccessCache({ maxEntries: 0 }),
      now: () => clock,
    }),
    now: () => clock,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  };
  return {
    organizations: createOrganizations(deps),
    relations,
    items,
    bucket,
    bumped,
    published,
    logged,
    tick: (ms = 1) => {
      clock += ms;
    },
  };
};

const ann = callerOf('ann');
const bob = callerOf('bob');
const staff = callerOf('eve', ['Employees']);

describe('creating an organization', () => {
  it('makes the creator its manager, raises their access version and keeps the sanitised fields', async () => {
    const { organizations, relations, bumped } = setup();
    const created = await organizations.create(ann, { name: 'Acme', description: 'Sensors', website: '' });
    expect(created).toMatchObject({ name: 'Acme', description: 'Sensors', createdBy: 'ann', created: 1_000 });
    expect(created).not.toHaveProperty('website');
    expect(relations.rows.get(relationId('organization-manager', created.id, 'ann'))).toMatchObject({
      createdBy: 'ann',
    });
    expect(bumped).toEqual([['ann']]);
    expect(await organizations.get(ann, created.id)).toEqual(created);
  });

  it('takes the organization back when its manager relation cannot be written', async () => {
    const { organizations, relations, items, logged } = setup();
    relations.failCreates();
    const error = await rejectionOf(organizations.create(ann, { name: 'Acme' }));
    expect(error).toMatchObject({ status: 503, message: MESSAGES.changeUndone });
    expect(items.size).toBe(0);
    expect(relations.rows.size).toBe(0);
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', message: 'Organization creation undone' }));
  });
});

describe('reading organizations', () => {
  it('lets members of every role read one, and refuses anyone else', async () => {
    const { organizations, relations } = setup();
    const { id } = await organizations.create(ann, { name: 'Acme' });
    relations.add('organization-user', id, 'uma');
    relations.add('organization-participant', id, 'pat');
    for (const member of ['uma', 'pat']) {
      expect((await organizations.get(callerOf(member), id)).name).toBe('Acme');
    }
    expect(await rejectionOf(organizations.get(bob, id))).toMatchObject({ status: 403 });
    expect((await organizations.get(staff, id)).name).toBe('Acme');
  });

  it('answers 404 to staff for an id that does not exist, and 403 to others (nothing is revealed)', async () => {
    const { organizations } = setup();
    expect(await rejectionOf(organizations.get(staff, 'nope'))).toMatchObject({
      status: 404,
      message: MESSAGES.organizationNotFound('nope'),
    });
    expect(await rejectionOf(organizations.get(ann, 'nope'))).toMatchObject({ status: 403 });
  });

  it("lists the caller's organizations once each, with every role held, across pages", async () => {
    const { organizations, relations } = setup();
    const one = await organizations.create(ann, { name: 'One' });
    const two = await organizations.create(bob, { name: 'Two' });
    const three = await organizations.create(bob, { name: 'Three' });
    await organizations.create(bob, { name: 'Not mine' });
    relations.add('organization-user', one.id, 'ann');
    relations.add('organization-user', two.id, 'ann');
    relations.add('organization-participant', three.id, 'ann');
    relations.add('organization-user', 'deleted-org', 'ann');

    const seen: { name: string; roles: string[] }[] = [];
    let cursor: string | undefined;
    do {
      const page = await organizations.listMine(ann, { limit: 1, cursor });
      seen.push(...page.items.map(({ name, roles }) => ({ name, roles })));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([
      { name: 'One', roles: ['organization-manager', 'organization-user'] },
      { name: 'Two', roles: ['organization-user'] },
      { name: 'Three', roles: ['organization-participant'] },
    ]);
  });

  it('lists every organization for staff, paged', async () => {
    const { organizations } = setup();
    for (const name of ['A', 'B', 'C']) await organizations.create(ann, { name });
    const first = await organizations.listAll({ limit: 2 });
    const second = await organizations.listAll({ limit: 2, cursor: first.nextCursor });
    expect([...first.items, ...second.items].map((o) => o.name)).toEqual(['A', 'B', 'C']);
    expect(second.nextCursor).toBeUndefined();
  });
});

describe('changing an organization', () => {
  it('lets a manager change fields and clear optional ones with an empty value', async () => {
    const { organizations, tick } = setup();
    const { id } = await organizations.create(ann, { name: 'Acme', description: 'Old', website: 'https://a.example' });
    tick();
    const changed = await organizations.update(ann, id, { description: '', contactEmail: 'ops@acme.example' });
    expect(changed).toMatchObject({ name: 'Acme', contactEmail: 'ops@acme.example', website: 'https://a.example' });
    expect(changed).not.toHaveProperty('description');
    expect(changed.updated).toBe(1_001);
  });

  it('refuses a member who is not a manager', async () => {
    const { organizations, relations } = setup();
    const { id } = await organizations.create(ann, { name: 'Acme' });
    relations.add('organization-user', id, 'uma');
    expect(await rejectionOf(organizations.update(callerOf('uma'), id, { name: 'Mine' }))).toMatchObject({
      status: 403,
      message: MESSAGES.accessDenied('organization'),
    });
  });
});

describe('deleting an organization', () => {
  it('removes its relations (managers last), tells the notified types, raises versions and removes its files', async () => {
    const { organizations, relations, items, bucket, bumped, published } = setup();
    const { id } = await organizations.create(ann, { name: 'Acme' });
    relations.add('organization-user', id, 'uma');
    relations.add('organization-device', id, 'd1');
    relations.add('organization-manager', 'other-org', 'ann');
    bucket.put(`organizations/${id}/logo-x`, PNG, 'image/png');
    bucket.put('organizations/other-org/logo-y', PNG, 'image/png');
    bumped.length = 0;

    await organizations.remove(ann, id);
    expect(items.has(id)).toBe(false);
    expect([...relations.rows.keys()]).toEqual([relationId('organization-manager', 'other-org', 'ann')]);
    expect(bumped).toEqual([['d1', 'uma', 'ann']]);
    expect(published).toContainEqual({
      changes: [
        expect.objectContaining({
          change: 'removed',
          relation: expect.objectContaining({ type: 'organization-device' }),
        }),
        expect.objectContaining({
          change: 'removed',
          relation: expect.objectContaining({ type: 'organization-user' }),
        }),
        expect.objectContaining({
          change: 'removed',
          relation: expect.objectContaining({ type: 'organization-manager' }),
        }),
      ],
      actor: 'ann',
    });
    expect([...bucket.objects.keys()]).toEqual(['organizations/other-org/logo-y']);
  });

  it('lets staff delete, refuses a user who is not a manager', async () => {
    const { organizations, relations } = setup();
    const { id } = await organizations.create(ann, { name: 'Acme' });
    relations.add('organization-user', id, 'uma');
    expect(await rejectionOf(organizations.remove(callerOf('uma'), id))).toMatchObject({ status: 403 });
    await organizations.remove(staff, id);
    expect(await rejectionOf(organizations.get(staff, id))).toMatchObject({ status: 404 });
  });
});

describe('the logo', () => {
  const uploaded = async (body: Uint8Array, contentType: string) => {
    const context = setup();
    const { id } = await context.organizations.create(ann, { name: 'Acme' });
    const upload = await context.organizations.createLogoUpload(ann, id, { contentType: 'image/png', size: 12 });
    context.bucket.put(upload.key, body, contentType);
    return { ...context, id, upload };
  };

  it('answers an upload URL signed for the declared type and size, under a fresh key of the organization', async () => {
    const { upload, id } = await uploaded(PNG, 'image/png');
    expect(upload).toMatchObject({
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      key: `organizations/${id}/logo-00000000-0000-4000-8000-000000000002`,
      url: `put:organizations/${id}/logo-00000000-0000-4000-8000-000000000002:image/png:12:600`,
      expiresAt: 1_000 + 600_000,
    });
  });

  it('only for managers', async () => {
    const { organizations, relations } = setup();
    const { id } = await organizations.create(ann, { name: 'Acme' });
    relations.add('organization-user', id, 'uma');
    const request = { contentType: 'image/png', size: 10 } as const;
    expect(await rejectionOf(organizations.createLogoUpload(callerOf('uma'), id, request))).toMatchObject({
      status: 403,
    });
  });

  it('sets a checked upload as the logo, with a read URL, and deletes the one it replaces', async () => {
    const { organizations, bucket, id, upload } = await uploaded(PNG, 'image/png');
    const first = await organizations.setLogo(ann, id, upload.key);
    expect(first.logo).toEqual({ key: upload.key, contentType: 'image/png', size: PNG.length, updated: 1_000 });
    expect(first.logoUrl).toBe(`get:${upload.key}:900`);

    const next = await organizations.createLogoUpload(ann, id, { contentType: 'image/jpeg', size: JPEG.length });
    bucket.put(next.key, JPEG, 'image/jpeg');
    const second = await organizations.setLogo(ann, id, next.key);
    expect(second.logo).toMatchObject({ key: next.key, contentType: 'image/jpeg' });
    expect([...bucket.objects.keys()]).toEqual([next.key]);
    // Confirming the same key again changes nothing.
    expect((await organizations.setLogo(ann, id, next.key)).logo).toEqual(second.logo);
  });

  it('refuses and deletes an object whose bytes are not the declared type', async () => {
    const { organizations, bucket, id, upload } = await uploaded(HTML, 'image/png');
    expect(await rejectionOf(organizations.setLogo(ann, id, upload.key))).toMatchObject({
      status: 400,
      message: MESSAGES.organizationLogoMismatch('image/png'),
    });
    expect(bucket.objects.has(upload.key)).toBe(false);
    expect((await organizations.get(ann, id)).logo).toBeUndefined();
  });

  it('refuses and deletes an object stored with a type that is not a logo type (e.g. SVG)', async () => {
    const { organizations, bucket, id, upload } = await uploaded(HTML, 'image/svg+xml');
    expect(await rejectionOf(organizations.setLogo(ann, id, upload.key))).toMatchObject({
      status: 400,
      message: MESSAGES.organizationLogoType,
    });
    expect(bucket.objects.has(upload.key)).toBe(false);
  });

  it('refuses and deletes an object larger than 1 MB, whatever was declared', async () => {
    const big = new Uint8Array(LOGO_MAX_BYTES + 1);
    big.set(PNG);
    const { organizations, bucket, id, upload } = await uploaded(big, 'image/png');
    expect(await rejectionOf(organizations.setLogo(ann, id, upload.key))).toMatchObject({
      status: 400,
      message: MESSAGES.organizationLogoOversized,
    });
    expect(bucket.objects.has(upload.key)).toBe(false);
  });

  it("refuses a key that is not one of this organization's uploads, and a missing upload", async () => {
    const { organizations, relations, id } = await uploaded(PNG, 'image/png');
    const other = await organizations.create(ann, { name: 'Other' });
    relations.add('organization-manager', other.id, 'ann');
    for (const key of [
      `organizations/${other.id}/logo-00000000-0000-4000-8000-000000000002`,
      `organizations/${id}/../${other.id}/logo-00000000-0000-4000-8000-000000000002`,
      `organizations/${id}/something-else`,
    ]) {
      expect(await rejectionOf(organizations.setLogo(ann, id, key))).toMatchObject({
        status: 400,
        message: MESSAGES.organizationLogoKey,
      });
    }
    expect(
      await rejectionOf(
        organizations.setLogo(ann, id, `organizations/${id}/logo-00000000-0000-4000-8000-00000000abcd`),
      ),
    ).toMatchObject({ status: 400, message: MESSAGES.organizationLogoMissing });
  });

  it('removes the logo and its object', async () => {
    const { organizations, bucket, id, upload } = await uploaded(PNG, 'image/png');
    await organizations.setLogo(ann, id, upload.key);
    const without = await organizations.deleteLogo(ann, id);
    expect(without.logo).toBeUndefined();
    expect(bucket.objects.size).toBe(0);
    expect(await rejectionOf(organizations.deleteLogo(ann, id))).toMatchObject({
      status: 404,
      message: MESSAGES.organizationNoLogo,
    });
  });
});
