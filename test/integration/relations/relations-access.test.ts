import { ApiError } from '../../../shared/contracts/client';
import type { RelationType } from '../../../shared/relations/relation-types';
import { seedRelation } from '../../support/relations';
import { apiAs, type DemoEmail, subOf, tokenOf, uniqueId } from '../../support/stack';

/**
 * The access module through a real entry point: listing an object's relations needs access to the object.
 * Every assertion follows a change in the very next request: no cached decision may outlive a relation.
 */

const as = async (email: DemoEmail) => apiAs('relations', await tokenOf(email));

/** The status a caller gets reading the object's relations of one type (the type names the object's kind). */
const probe = async (email: DemoEmail, objectId: string, type: RelationType) => {
  try {
    await (await as(email)).listByReferrerId({ params: { id: objectId, x: 1 }, query: { type } });
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
};

const device = (email: DemoEmail, deviceId: string) => probe(email, deviceId, 'device-user');
const relationIdOf = (type: RelationType, referrerId: string, referentId: string) =>
  `${type}#${referrerId}#${referentId}`;

let owner: string;
let member: string;

beforeAll(async () => {
  owner = await subOf('user@example.com');
  member = await subOf('approved@example.com');
});

describe('device access through a direct relation', () => {
  it('is granted by device-user on the next request and revoked on the next request, even when cached', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, owner);
    const ownerApi = await as('user@example.com');

    expect(await device('approved@example.com', deviceId)).toBe(403);
    expect(await device('approved@example.com', deviceId)).toBe(403);

    await ownerApi.create({ body: { type: 'device-user', referrerId: deviceId, referentId: member } });
    expect(await device('approved@example.com', deviceId)).toBe(200);
    expect(await device('approved@example.com', deviceId)).toBe(200);

    await ownerApi.delete({ params: { id: relationIdOf('device-user', deviceId, member) } });
    expect(await device('approved@example.com', deviceId)).toBe(403);
  });

  it('counts device administrators and owners as device users', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, owner);
    expect(await device('user@example.com', deviceId)).toBe(200);

    const ownerApi = await as('user@example.com');
    await ownerApi.create({ body: { type: 'device-administrator', referrerId: deviceId, referentId: member } });
    expect(await device('approved@example.com', deviceId)).toBe(200);

    // A role change keeps access; its removal ends it.
    await ownerApi.update({
      params: { id: relationIdOf('device-administrator', deviceId, member) },
      body: { type: 'device-user' },
    });
    expect(await device('approved@example.com', deviceId)).toBe(200);
    await ownerApi.delete({ params: { id: relationIdOf('device-user', deviceId, member) } });
    expect(await device('approved@example.com', deviceId)).toBe(403);
  });
});

describe('device access through a campaign', () => {
  it('follows both the campaign-user and the campaign-device relation, each on the next request', async () => {
    const deviceId = uniqueId('dev');
    const campaignId = uniqueId('camp');
    const viewer = await subOf('distributor@example.com');
    // user@ owns the device and manages the campaign: they may put one in the other.
    await seedRelation('device-owner', deviceId, owner);
    await seedRelation('campaign-manager', campaignId, owner);
    const manager = await as('user@example.com');

    expect(await device('distributor@example.com', deviceId)).toBe(403);
    await manager.create({ body: { type: 'campaign-user', referrerId: campaignId, referentId: viewer } });
    expect(await probe('distributor@example.com', campaignId, 'campaign-user')).toBe(200);
    // A member of a campaign that does not hold the device still has no access to it (and that is cached).
    expect(await device('distributor@example.com', deviceId)).toBe(403);

    await manager.create({ body: { type: 'campaign-device', referrerId: campaignId, referentId: deviceId } });
    expect(await device('distributor@example.com', deviceId)).toBe(200);

    await manager.delete({ params: { id: relationIdOf('campaign-device', campaignId, deviceId) } });
    expect(await device('distributor@example.com', deviceId)).toBe(403);

    await manager.create({ body: { type: 'campaign-device', referrerId: campaignId, referentId: deviceId } });
    expect(await device('distributor@example.com', deviceId)).toBe(200);

    await manager.delete({ params: { id: relationIdOf('campaign-user', campaignId, viewer) } });
    expect(await device('distributor@example.com', deviceId)).toBe(403);
    expect(await probe('distributor@example.com', campaignId, 'campaign-user')).toBe(403);
  });

  it("gives a campaign participant the campaign but not the campaign's devices", async () => {
    const deviceId = uniqueId('dev');
    const campaignId = uniqueId('camp');
    await seedRelation('device-owner', deviceId, owner);
    await seedRelation('campaign-manager', campaignId, owner);
    await seedRelation('campaign-device', campaignId, deviceId);
    const manager = await as('user@example.com');

    await manager.create({ body: { type: 'campaign-participant', referrerId: campaignId, referentId: member } });
    expect(await probe('approved@example.com', campaignId, 'campaign-participant')).toBe(200);
    expect(await device('approved@example.com', deviceId)).toBe(403);

    await manager.update({
      params: { id: relationIdOf('campaign-participant', campaignId, member) },
      body: { type: 'campaign-user' },
    });
    expect(await device('approved@example.com', deviceId)).toBe(200);
  });
});

describe('organization access', () => {
  it('is granted by organization-user and revoked on the next request', async () => {
    const organizationId = uniqueId('org');
    await seedRelation('organization-manager', organizationId, owner);
    const manager = await as('user@example.com');

    expect(await probe('approved@example.com', organizationId, 'organization-user')).toBe(403);
    await manager.create({ body: { type: 'organization-user', referrerId: organizationId, referentId: member } });
    expect(await probe('approved@example.com', organizationId, 'organization-user')).toBe(200);
    await manager.delete({ params: { id: relationIdOf('organization-user', organizationId, member) } });
    expect(await probe('approved@example.com', organizationId, 'organization-user')).toBe(403);
  });

  it('never reaches a device: the organization route always denies (spec §6)', async () => {
    const organizationId = uniqueId('org');
    const deviceId = uniqueId('dev');
    await seedRelation('organization-manager', organizationId, owner);
    await seedRelation('device-owner', deviceId, owner);
    const manager = await as('user@example.com');
    await manager.create({ body: { type: 'organization-user', referrerId: organizationId, referentId: member } });
    await manager.create({ body: { type: 'organization-device', referrerId: organizationId, referentId: deviceId } });

    // The member sees the organization and that it holds the device, but not the device itself.
    const holdings = await (await as('approved@example.com')).listByReferrerId({
      params: { id: organizationId, x: 10 },
      query: { type: 'organization-device' },
    });
    expect(holdings.items.map((r) => r.referentId)).toEqual([deviceId]);
    expect(await device('approved@example.com', deviceId)).toBe(403);

    // Even as a manager of the organization.
    await manager.update({
      params: { id: relationIdOf('organization-user', organizationId, member) },
      body: { type: 'organization-manager' },
    });
    expect(await device('approved@example.com', deviceId)).toBe(403);
  });
});

describe('staff', () => {
  it('reach every object without a relation', async () => {
    const deviceId = uniqueId('dev');
    await seedRelation('device-owner', deviceId, owner);
    expect(await device('employee@example.com', deviceId)).toBe(200);
    expect(await device('admin@example.com', deviceId)).toBe(200);
    expect(await device('distributor@example.com', deviceId)).toBe(403);
  });
});
