import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Relation } from '../../../shared/contracts/relations';
import { RELATION_TYPES, type RelationType, relationId } from '../../../shared/relations/relation-types';
import { bannersAbout } from '../../support/notifications';
import { seedRelation } from '../../support/relations';
import {
  apiAs,
  apiRejection,
  type DemoEmail,
  documentClient,
  stack,
  subOf,
  tokenOf,
  uniqueId,
} from '../../support/stack';

const as = async (email: DemoEmail) => apiAs('relations', await tokenOf(email));

let userId: string;
let approvedId: string;
let distributorId: string;

beforeAll(async () => {
  userId = await subOf('user@example.com');
  approvedId = await subOf('approved@example.com');
  distributorId = await subOf('distributor@example.com');
});

describe('creating relations', () => {
  it('stores one relation per (type, referrer, referent): a second create is a 409, not a second row', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, userId);
    const owner = await as('user@example.com');
    const before = Date.now();

    const created = await owner.create({ body: { type: 'device-user', referrerId: deviceId, referentId: approvedId } });
    expect(created).toMatchObject({
      id: `device-user#${deviceId}#${approvedId}`,
      type: 'device-user',
      referrerId: deviceId,
      referentId: approvedId,
      createdBy: userId,
    });
    expect(created.created).toBeGreaterThanOrEqual(before);
    const stored = await documentClient().send(
      new GetCommand({ TableName: stack().tables.relations, Key: { id: created.id } }),
    );
    expect(stored.Item).toMatchObject({
      referrerSort: `device-user#${approvedId}`,
      referentSort: `device-user#${deviceId}`,
    });

    const again = await apiRejection(
      owner.create({ body: { type: 'device-user', referrerId: deviceId, referentId: approvedId } }),
    );
    expect(again.status).toBe(409);
    expect(again.message).toBe(`Relation already exists: ${created.id}`);
    const page = await owner.listByReferrerId({ params: { id: deviceId, x: 100 }, query: { type: 'device-user' } });
    expect(page.items).toHaveLength(1);

    // A second role in the same family is a role change, not another relation.
    const sibling = await apiRejection(
      owner.create({ body: { type: 'device-administrator', referrerId: deviceId, referentId: approvedId } }),
    );
    expect(sibling.status).toBe(409);
    expect(sibling.message).toContain('change that role instead');
  });

  it('accepts only the 13 types of the spec, and two different ids', async () => {
    const admin = await as('admin@example.com');
    expect((await admin.listTypes({})).map((t) => t.type)).toEqual([...RELATION_TYPES]);

    const badType = await apiRejection(
      admin.create({ body: { type: 'device-friend' as RelationType, referrerId: 'a', referentId: 'b' } }),
    );
    expect(badType.status).toBe(400);
    expect(badType.body.issues?.[0]?.message).toMatch(/^Type must be one of: organization-user, /);

    const same = await apiRejection(
      admin.create({ body: { type: 'inviter-contact', referrerId: 'same-id', referentId: 'same-id' } }),
    );
    expect(same.status).toBe(400);
    expect(same.message).toBe('A relation links two different ids');

    const badId = await apiRejection(
      admin.create({ body: { type: 'device-user', referrerId: 'has#hash', referentId: approvedId } }),
    );
    expect(badId.status).toBe(400);
  });
});

describe('who may change which relation', () => {
  it('lets an organization manager run its members, and nobody grant themself anything', async () => {
    const organizationId = uniqueId('org');
    await seedRelation('organization-manager', organizationId, userId);
    const manager = await as('user@example.com');
    const outsider = await as('distributor@example.com');

    const refused = await apiRejection(
      outsider.create({ body: { type: 'organization-user', referrerId: organizationId, referentId: approvedId } }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toBe('Only a manager of this organization can change its members');

    const selfGrant = await apiRejection(
      outsider.create({
        body: { type: 'organization-manager', referrerId: organizationId, referentId: distributorId },
      }),
    );
    expect(selfGrant.status).toBe(403);
    expect(selfGrant.message).toBe('You cannot grant yourself a relation');
    const staffSelfGrant = await apiRejection(
      (await as('admin@example.com')).create({
        body: {
          type: 'organization-manager',
          referrerId: organizationId,
          referentId: await subOf('admin@example.com'),
        },
      }),
    );
    expect(staffSelfGrant.status).toBe(403);

    await manager.create({ body: { type: 'organization-user', referrerId: organizationId, referentId: approvedId } });
    // A member may leave; the last manager may not.
    await (await as('approved@example.com')).delete({
      params: { id: relationId('organization-user', organizationId, approvedId) },
    });
    const last = await apiRejection(
      manager.delete({ params: { id: relationId('organization-manager', organizationId, userId) } }),
    );
    expect(last.status).toBe(409);
    expect(last.message).toBe('This organization needs at least one manager: add another manager first');
  });

  it('lets a manager add only a device they own or administer, and only staff touch ownership', async () => {
    const organizationId = uniqueId('org');
    const ownDevice = uniqueId('dev');
    const otherDevice = uniqueId('dev');
    await seedRelation('organization-manager', organizationId, userId);
    await seedRelation('device-owner', ownDevice, userId);
    await seedRelation('device-owner', otherDevice, approvedId);
    const manager = await as('user@example.com');

    await manager.create({ body: { type: 'organization-device', referrerId: organizationId, referentId: ownDevice } });
    const foreign = await apiRejection(
      manager.create({ body: { type: 'organization-device', referrerId: organizationId, referentId: otherDevice } }),
    );
    expect(foreign.status).toBe(403);
    expect(foreign.message).toContain('who also owns or administers the device');

    // The other device's owner may take it out of an organization it was put in.
    await seedRelation('organization-device', organizationId, otherDevice);
    await (await as('approved@example.com')).delete({
      params: { id: relationId('organization-device', organizationId, otherDevice) },
    });

    const ownership = await apiRejection(
      manager.create({ body: { type: 'device-owner', referrerId: ownDevice, referentId: approvedId } }),
    );
    expect(ownership.status).toBe(403);
    expect(ownership.message).toContain('Only staff can change device-owner relations');
    const employee = await as('employee@example.com');
    const unowned = uniqueId('dev');
    await employee.create({ body: { type: 'device-owner', referrerId: unowned, referentId: distributorId } });
    // One owner per device, for staff too: ownership moves by transfer.
    const second = await apiRejection(
      employee.create({ body: { type: 'device-owner', referrerId: unowned, referentId: approvedId } }),
    );
    expect(second.status).toBe(409);
    expect(second.message).toBe('This device already has an owner: ownership moves by transfer');
  });

  it('changes a role only within its family, moving the relation to its new id', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, userId);
    const owner = await as('user@example.com');
    const created = await owner.create({ body: { type: 'device-user', referrerId: deviceId, referentId: approvedId } });

    const crossFamily = await apiRejection(
      owner.update({ params: { id: created.id }, body: { type: 'organization-user' } }),
    );
    expect(crossFamily.status).toBe(400);
    expect(crossFamily.message).toBe('A device-user relation cannot become organization-user');

    const moved = await owner.update({ params: { id: created.id }, body: { type: 'device-administrator' } });
    expect(moved.id).toBe(relationId('device-administrator', deviceId, approvedId));
    expect((await apiRejection(owner.get({ params: { id: created.id } }))).status).toBe(404);
    expect(await owner.get({ params: { id: moved.id } })).toEqual(moved);
  });
});

describe('reading relations', () => {
  it('pages with {x} as the page size and an opaque cursor, without repeating or skipping', async () => {
    const organizationId = uniqueId('org');
    await seedRelation('organization-manager', organizationId, userId);
    const members = await Promise.all(
      Array.from(
        { length: 4 },
        async (_, i) => (await seedRelation('organization-participant', organizationId, `p${i}-${uniqueId('u')}`)).id,
      ),
    );
    const manager = await as('user@example.com');

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await manager.listByReferrerId({ params: { id: organizationId, x: 2 }, query: { cursor } });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen.sort()).toEqual([...members, relationId('organization-manager', organizationId, userId)].sort());

    const filtered = await manager.listByReferrerId({
      params: { id: organizationId, x: 100 },
      query: { type: 'organization-manager' },
    });
    expect(filtered.items.map((r) => r.referentId)).toEqual([userId]);

    const badSize = await apiRejection(manager.listByReferrerId({ params: { id: organizationId, x: 0 } }));
    expect(badSize.status).toBe(400);
    expect(badSize.message).toContain('Page size must be from 1 to 100');
    const badCursor = await apiRejection(
      manager.listByReferrerId({ params: { id: organizationId, x: 2 }, query: { cursor: 'not-a-cursor' } }),
    );
    expect(badCursor.status).toBe(400);
    expect(badCursor.message).toBe('Invalid page cursor');
    // A cursor that decodes well but names no key of this index is the client's error too, not a 500.
    const forged = Buffer.from(JSON.stringify({ q: 0, k: { id: 42 } })).toString('base64url');
    const forgedKey = await apiRejection(
      manager.listByReferrerId({ params: { id: organizationId, x: 2 }, query: { cursor: forged } }),
    );
    expect(forgedKey.status).toBe(400);
  });

  it('lists everything a user belongs to by referent, and only their own', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, distributorId);
    const mine = await (await as('distributor@example.com')).listByReferentId({
      params: { id: distributorId, x: 100 },
      query: { type: 'device-owner' },
    });
    expect(mine.items.map((r) => r.referrerId)).toContain(deviceId);
    const theirs = await apiRejection(
      (await as('none@example.com')).listByReferentId({ params: { id: distributorId, x: 10 } }),
    );
    expect(theirs.status).toBe(403);
  });

  it('answers listByParameters with the union of its queries, each relation once, and narrows by otherId', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, userId);
    await seedRelation('device-user', deviceId, approvedId);
    const owner = await as('user@example.com');

    const union = await owner.listByParameters({
      body: {
        parameters: [
          { typeName: 'referrer', typeArray: ['device-owner', 'device-user'], id: deviceId },
          { typeName: 'referent', typeArray: ['device-owner'], id: userId },
        ],
        limit: 100,
      },
    });
    const ids = union.items.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        relationId('device-owner', deviceId, userId),
        relationId('device-user', deviceId, approvedId),
      ]),
    );

    const mine = await owner.listByParameters({
      body: {
        parameters: [
          { typeName: 'referrer', typeArray: ['device-owner', 'device-user'], id: deviceId, otherId: userId },
        ],
      },
    });
    expect(mine.items.map((r) => r.type)).toEqual(['device-owner']);
  });

  it('gives staff every relation by type, newest first', async () => {
    const first = await seedRelation('inviter-invite', uniqueId('inviter'), uniqueId('invite'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await seedRelation('inviter-invite', uniqueId('inviter'), uniqueId('invite'));
    const page = await (await as('employee@example.com')).listPage({
      params: { x: 10 },
      query: { type: 'inviter-invite' },
    });
    const ids = page.items.map((r: Relation) => r.id);
    expect(ids.indexOf(second.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id) === -1 ? Infinity : ids.indexOf(first.id));
  });

  it('reads one relation by its URL-encoded id; a foreign one is 403 before it is found or not', async () => {
    const deviceId = uniqueId('dev');
    const owned = await seedRelation('device-owner', deviceId, userId);
    expect(await (await as('user@example.com')).get({ params: { id: owned.id } })).toEqual(owned);
    expect((await apiRejection((await as('approved@example.com')).get({ params: { id: owned.id } }))).status).toBe(403);
    const missing = relationId('device-user', deviceId, approvedId);
    const notFound = await apiRejection((await as('user@example.com')).get({ params: { id: missing } }));
    expect(notFound.status).toBe(404);
    expect(notFound.message).toBe(`Relation not found: ${missing}`);
  });
});

describe('events for notifications', () => {
  it('tells the people spec §6 names, once per added or removed device owner, device administrator and organization device', async () => {
    const deviceId = uniqueId('dev');
    const organizationId = uniqueId('org');
    const employee = await as('employee@example.com');
    const employeeId = await subOf('employee@example.com');

    await employee.create({ body: { type: 'device-owner', referrerId: deviceId, referentId: userId } });
    const owner = await as('user@example.com');
    await owner.create({ body: { type: 'device-administrator', referrerId: deviceId, referentId: approvedId } });
    await owner.create({ body: { type: 'device-user', referrerId: deviceId, referentId: distributorId } });
    await seedRelation('organization-manager', organizationId, userId);
    await owner.create({ body: { type: 'organization-device', referrerId: organizationId, referentId: deviceId } });
    await owner.delete({ params: { id: relationId('organization-device', organizationId, deviceId) } });

    // Each change went to the jobs queue as an event, and the notifications worker told the right people.
    const user = await bannersAbout(userId, deviceId, 3);
    expect(user.map((b) => b.title).sort()).toEqual([
      `Device ${deviceId} joined organization ${organizationId}`,
      `Device ${deviceId} left organization ${organizationId}`,
      `You are now the owner of device ${deviceId}`,
    ]);
    expect(user.find((b) => b.title.startsWith('You are now'))!.initiator.id).toBe(employeeId);
    const approved = await bannersAbout(approvedId, deviceId, 1);
    expect(approved.map((b) => [b.title, b.initiator.id])).toEqual([
      [`You are now an administrator of device ${deviceId}`, userId],
    ]);
    // A device user is not among the relations spec §6 notifies.
    expect(await bannersAbout(distributorId, deviceId, 0)).toEqual([]);
  });
});

describe('migration', () => {
  it('re-keys legacy rows, fills index keys and creation time, and leaves rows that are no relation', async () => {
    const organizationId = uniqueId('legacy-org');
    const legacyId = uniqueId('legacy-row');
    const junkId = uniqueId('junk-row');
    const db = documentClient();
    await db.send(
      new PutCommand({
        TableName: stack().tables.relations,
        Item: { id: legacyId, type: 'organization-user', referrerId: organizationId, referentId: approvedId },
      }),
    );
    await db.send(new PutCommand({ TableName: stack().tables.relations, Item: { id: junkId, type: 'friend-of' } }));

    const admin = await as('admin@example.com');
    let totals = { updated: 0, skipped: 0 };
    let cursor: string | undefined;
    do {
      const page = await admin.migrate({ query: { limit: 100, cursor } });
      totals = { updated: totals.updated + page.updated, skipped: totals.skipped + page.skipped };
      cursor = page.nextCursor;
    } while (cursor);
    expect(totals.updated).toBeGreaterThanOrEqual(1);
    expect(totals.skipped).toBeGreaterThanOrEqual(1);

    const canonical = relationId('organization-user', organizationId, approvedId);
    expect(await admin.get({ params: { id: canonical } })).toMatchObject({ type: 'organization-user' });
    const gone = await db.send(new GetCommand({ TableName: stack().tables.relations, Key: { id: legacyId } }));
    expect(gone.Item).toBeUndefined();
    const members = await admin.listByReferentId({
      params: { id: approvedId, x: 100 },
      query: { type: 'organization-user' },
    });
    expect(members.items.map((r) => r.id)).toContain(canonical);

    // A second run changes nothing more.
    const again = await admin.migrate({ query: { limit: 100 } });
    expect(again.updated).toBe(0);
  });
});
