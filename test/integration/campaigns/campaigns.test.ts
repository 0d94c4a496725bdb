import type { Campaign, CampaignRole } from '../../../shared/contracts/campaigns';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { seedOrganization } from '../../support/organizations';
import { type FreshUser, freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { apiAs, apiRejection, everyPage, tokenOf, uniqueId } from '../../support/stack';

/**
 * The campaigns area through the local gateway: the model (docs/campaigns.md), its guards, and the data window
 * that access through a campaign carries. Everyone whose relations change is a fresh person.
 */

const DAY = 86_400_000;
const campaignsOf = (user: FreshUser) => apiAs('campaigns', user.token);
const relationsOf = (user: FreshUser) => apiAs('relations', user.token);
const staff = async () => apiAs('campaigns', await tokenOf('admin@example.com'));

/** A window starting `fromDays` from now, lasting `days`. */
const window = (fromDays: number, days: number) => {
  const startsAt = Date.now() + fromDays * DAY;
  return { startsAt, endsAt: startsAt + days * DAY };
};

const newCampaign = (
  user: FreshUser,
  extra: Partial<{ organizationId: string; startsAt: number; endsAt: number }> = {},
) =>
  campaignsOf(user).create({
    body: { name: uniqueId('Campaign'), description: 'Air quality', ...window(-1, 10), ...extra },
  });

/** An organization record (the organizations area writes these) and its manager. */
const organizationManagedBy = async (user: FreshUser) => (await seedOrganization(user.id, { name: 'Test org' })).id;

let owner: FreshUser;
let member: FreshUser;
let outsider: FreshUser;

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all([
    freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-owner' }),
    freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-member' }),
    freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-outsider' }),
  ]);
});

describe('create', () => {
  it('makes the creator its campaign-manager, with a status derived from the window', async () => {
    const campaign = await newCampaign(owner);
    expect(campaign).toMatchObject({ description: 'Air quality', status: 'running', createdBy: owner.id });
    expect(campaign.organizationId).toBeUndefined();
    const relation = await relationsOf(owner).get({
      params: { id: relationId('campaign-manager', campaign.id, owner.id) },
    });
    expect(relation).toMatchObject({ type: 'campaign-manager', createdBy: owner.id });

    expect((await newCampaign(owner, window(30, 5))).status).toBe('planned');
    expect((await newCampaign(owner, window(-30, 5))).status).toBe('ended');
  });

  it('refuses a window that ends at or before its start (400, clear message), and names sanitised to nothing', async () => {
    const { startsAt } = window(0, 1);
    const same = await apiRejection(newCampaign(owner, { startsAt, endsAt: startsAt }));
    expect(same.status).toBe(400);
    expect(same.message).toContain('The campaign must end after it starts');
    expect((await apiRejection(newCampaign(owner, { startsAt, endsAt: startsAt - 1 }))).status).toBe(400);
    const long = await apiRejection(newCampaign(owner, { startsAt, endsAt: startsAt + 2000 * DAY }));
    expect(long.message).toContain('A campaign lasts at most 1827 days');
    const nameless = await apiRejection(campaignsOf(owner).create({ body: { name: '<>', ...window(0, 1) } }));
    expect(nameless.status).toBe(400);
    expect(nameless.message).toContain('Name cannot be empty');
  });

  it('links an organization only for its managers (403 otherwise, 404 for one that does not exist)', async () => {
    const organizationId = await organizationManagedBy(owner);
    const refused = await apiRejection(newCampaign(outsider, { organizationId }));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe(MESSAGES.campaignOrganizationManagerRequired);

    const linked = await newCampaign(owner, { organizationId });
    expect(linked.organizationId).toBe(organizationId);

    const ghost = uniqueId('org');
    await seedRelation('organization-manager', ghost, owner.id);
    expect((await apiRejection(newCampaign(owner, { organizationId: ghost }))).status).toBe(404);
  });
});

describe('read and change', () => {
  it('get needs a campaign relation (or staff); update needs manage, and keeps the window consistent', async () => {
    const campaign = await newCampaign(owner);
    expect((await apiRejection(campaignsOf(outsider).get({ params: { id: campaign.id } }))).status).toBe(403);
    expect((await (await staff()).get({ params: { id: campaign.id } })).id).toBe(campaign.id);

    await relationsOf(owner).create({
      body: { type: 'campaign-user', referrerId: campaign.id, referentId: member.id },
    });
    expect((await campaignsOf(member).get({ params: { id: campaign.id } })).name).toBe(campaign.name);
    const notManager = await apiRejection(
      campaignsOf(member).update({ params: { id: campaign.id }, body: { name: 'Mine now' } }),
    );
    expect(notManager.status).toBe(403);

    const renamed = await campaignsOf(owner).update({
      params: { id: campaign.id },
      body: { name: 'Renamed <b>', description: '' },
    });
    expect(renamed).toMatchObject({ name: 'Renamed b', description: '', startsAt: campaign.startsAt });
    expect(renamed.updated).toBeGreaterThan(campaign.updated);

    // One end sent: checked against the stored other end.
    const inverted = await apiRejection(
      campaignsOf(owner).update({ params: { id: campaign.id }, body: { endsAt: campaign.startsAt - 1 } }),
    );
    expect(inverted.status).toBe(400);
    expect(inverted.message).toContain('The campaign must end after it starts');
  });

  it('links and unlinks an organization on update; linking needs manage on it', async () => {
    const campaign = await newCampaign(owner);
    const foreignOrg = await organizationManagedBy(outsider);
    expect(
      (
        await apiRejection(
          campaignsOf(owner).update({ params: { id: campaign.id }, body: { organizationId: foreignOrg } }),
        )
      ).status,
    ).toBe(403);
    const ownOrg = await organizationManagedBy(owner);
    const linked = await campaignsOf(owner).update({ params: { id: campaign.id }, body: { organizationId: ownOrg } });
    expect(linked.organizationId).toBe(ownOrg);
    const unlinked = await campaignsOf(owner).update({ params: { id: campaign.id }, body: { organizationId: null } });
    expect(unlinked.organizationId).toBeUndefined();
  });

  it('an unknown campaign is 404 for staff and 403 for others (no existence leak); a bad id is 400', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await apiRejection((await staff()).get({ params: { id } }))).status).toBe(404);
    expect((await apiRejection(campaignsOf(outsider).get({ params: { id } }))).status).toBe(403);
    expect((await apiRejection(campaignsOf(outsider).get({ params: { id: 'x'.repeat(200) } }))).status).toBe(400);
  });
});

describe('lists', () => {
  it('mine: every campaign with a campaign-* relation to me, with my roles, paged', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-lister' });
    const managed = await newCampaign(person);
    const joined = await newCampaign(owner);
    await relationsOf(owner).create({
      body: { type: 'campaign-participant', referrerId: joined.id, referentId: person.id },
    });
    await newCampaign(owner); // not theirs

    const seen: { id: string; roles: string[] }[] = [];
    let cursor: string | undefined;
    do {
      const page = await campaignsOf(person).listMine({ query: { limit: 1, ...(cursor ? { cursor } : {}) } });
      expect(page.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.items.map(({ id, roles }) => ({ id, roles })));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: managed.id, roles: ['campaign-manager'] },
        { id: joined.id, roles: ['campaign-participant'] },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('mine with a role: only the campaigns where I hold it, paged; a role that is not a campaign role is refused', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-roles' });
    const managed = await newCampaign(person);
    const joined = await newCampaign(owner);
    const used = await newCampaign(owner);
    await relationsOf(owner).create({
      body: { type: 'campaign-participant', referrerId: joined.id, referentId: person.id },
    });
    await relationsOf(owner).create({ body: { type: 'campaign-user', referrerId: used.id, referentId: person.id } });
    const mine = async (role?: CampaignRole) => {
      const seen: { id: string; roles: string[] }[] = [];
      let cursor: string | undefined;
      do {
        const page = await campaignsOf(person).listMine({
          query: { limit: 1, ...(role ? { role } : {}), ...(cursor ? { cursor } : {}) },
        });
        seen.push(...page.items.map(({ id, roles }) => ({ id, roles })));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    expect(await mine('campaign-manager')).toEqual([{ id: managed.id, roles: ['campaign-manager'] }]);
    expect(await mine('campaign-user')).toEqual([{ id: used.id, roles: ['campaign-user'] }]);
    expect(await mine('campaign-participant')).toEqual([{ id: joined.id, roles: ['campaign-participant'] }]);
    expect((await mine()).map((c) => c.id).sort()).toEqual([managed.id, joined.id, used.id].sort());
    const refused = await apiRejection(
      campaignsOf(person).listMine({ query: { role: 'device-owner' as CampaignRole } }),
    );
    expect(refused.status).toBe(400);
  });

  it('all: staff only, paged', async () => {
    const campaign = await newCampaign(owner);
    expect((await apiRejection(campaignsOf(owner).listAll({ query: {} }))).status).toBe(403);
    const api = await staff();
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listAll({ query: { limit: 100, ...(cursor ? { cursor } : {}) } });
      ids.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids).toContain(campaign.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("by organization: the organization's campaigns, latest start first; needs view on the organization", async () => {
    const organizationId = await organizationManagedBy(owner);
    const early = await newCampaign(owner, { organizationId, ...window(-20, 5) });
    const late = await newCampaign(owner, { organizationId, ...window(-2, 5) });
    await newCampaign(owner); // no organization

    const first = await campaignsOf(owner).listByOrganization({ params: { id: organizationId }, query: { limit: 1 } });
    expect(first.items.map((c) => c.id)).toEqual([late.id]);
    const second = await campaignsOf(owner).listByOrganization({
      params: { id: organizationId },
      query: { limit: 1, cursor: first.nextCursor! },
    });
    expect(second.items.map((c) => c.id)).toEqual([early.id]);

    const refused = await apiRejection(
      campaignsOf(outsider).listByOrganization({ params: { id: organizationId }, query: {} }),
    );
    expect(refused.status).toBe(403);
    const bad = await apiRejection(
      campaignsOf(owner).listByOrganization({ params: { id: organizationId }, query: { cursor: 'nonsense' } }),
    );
    expect(bad.status).toBe(400);
  });
});

describe('the campaign data window', () => {
  /** A device the owner owns, held by a campaign the owner manages, where `member` is a campaign-user. */
  const campaignWithDevice = async (user: FreshUser, viewer: FreshUser) => {
    const deviceId = uniqueId('campaign-device');
    await seedRelation('device-owner', deviceId, user.id);
    const campaign = await newCampaign(user, window(-5, 10));
    await relationsOf(user).create({
      body: { type: 'campaign-device', referrerId: campaign.id, referentId: deviceId },
    });
    await relationsOf(user).create({ body: { type: 'campaign-user', referrerId: campaign.id, referentId: viewer.id } });
    return { deviceId, campaign };
  };
  const windowOf = (campaign: Pick<Campaign, 'startsAt' | 'endsAt'>) => ({
    startsAt: campaign.startsAt,
    endsAt: campaign.endsAt,
  });

  it("a campaign user's access to a campaign device carries exactly the campaign's window; the owner's none", async () => {
    const viewer = await freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-viewer' });
    const { deviceId, campaign } = await campaignWithDevice(owner, viewer);

    expect(await campaignsOf(viewer).deviceAccess({ params: { id: deviceId } })).toEqual({
      deviceId,
      via: 'campaign',
      windows: [windowOf(campaign)],
      campaignIds: [campaign.id],
    });
    expect(await campaignsOf(owner).deviceAccess({ params: { id: deviceId } })).toEqual({
      deviceId,
      via: 'device-owner',
      windows: null,
      campaignIds: [],
    });
    expect(await (await staff()).deviceAccess({ params: { id: deviceId } })).toMatchObject({
      via: 'staff',
      windows: null,
    });
    expect((await apiRejection(campaignsOf(outsider).deviceAccess({ params: { id: deviceId } }))).status).toBe(403);
  });

  it('a window change applies on the next request, even after the old window was cached', async () => {
    const viewer = await freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-viewer' });
    const { deviceId, campaign } = await campaignWithDevice(owner, viewer);
    const before = await campaignsOf(viewer).deviceAccess({ params: { id: deviceId } });
    expect(await campaignsOf(viewer).deviceAccess({ params: { id: deviceId } })).toEqual(before);

    const moved = await campaignsOf(owner).update({
      params: { id: campaign.id },
      body: { startsAt: campaign.startsAt - DAY, endsAt: campaign.endsAt + DAY },
    });
    expect((await campaignsOf(viewer).deviceAccess({ params: { id: deviceId } })).windows).toEqual([windowOf(moved)]);
  });

  it('through two campaigns: the union of both windows', async () => {
    const viewer = await freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-viewer' });
    const { deviceId, campaign } = await campaignWithDevice(owner, viewer);
    const later = await newCampaign(owner, window(60, 3));
    await relationsOf(owner).create({ body: { type: 'campaign-device', referrerId: later.id, referentId: deviceId } });
    await relationsOf(owner).create({ body: { type: 'campaign-user', referrerId: later.id, referentId: viewer.id } });
    const access = await campaignsOf(viewer).deviceAccess({ params: { id: deviceId } });
    expect(access.windows).toEqual([windowOf(campaign), windowOf(later)]);
    expect(access.campaignIds).toEqual([campaign.id, later.id].sort());
  });
});

describe('demo data', () => {
  it('seeds the demo campaign: its manager lists it, and its campaign user sees its device within its window', async () => {
    const approved = apiAs('campaigns', await tokenOf('approved@example.com'));
    const mine = await everyPage((cursor) =>
      approved.listMine({ query: { limit: 100, ...(cursor ? { cursor } : {}) } }),
    );
    const demo = mine.find((c) => c.id === 'demo-campaign-1');
    expect(demo).toMatchObject({ organizationId: 'demo-org-1', status: 'running', roles: ['campaign-manager'] });
    const distributor = apiAs('campaigns', await tokenOf('distributor@example.com'));
    expect(await distributor.deviceAccess({ params: { id: 'demo-device-2' } })).toEqual({
      deviceId: 'demo-device-2',
      via: 'campaign',
      windows: [{ startsAt: demo!.startsAt, endsAt: demo!.endsAt }],
      campaignIds: ['demo-campaign-1'],
    });
  });
});

describe('delete', () => {
  it('needs manage; removes the campaign and every relation it held, and members lose access at once', async () => {
    const viewer = await freshUser({ groups: ['Authenticated_users'], prefix: 'campaign-viewer' });
    const deviceId = uniqueId('campaign-device');
    await seedRelation('device-owner', deviceId, owner.id);
    const campaign = await newCampaign(owner);
    await relationsOf(owner).create({
      body: { type: 'campaign-device', referrerId: campaign.id, referentId: deviceId },
    });
    await relationsOf(owner).create({
      body: { type: 'campaign-user', referrerId: campaign.id, referentId: viewer.id },
    });
    expect((await campaignsOf(viewer).deviceAccess({ params: { id: deviceId } })).via).toBe('campaign');

    expect((await apiRejection(campaignsOf(viewer).delete({ params: { id: campaign.id } }))).status).toBe(403);
    await campaignsOf(owner).delete({ params: { id: campaign.id } });

    expect((await apiRejection((await staff()).get({ params: { id: campaign.id } }))).status).toBe(404);
    const admin = apiAs('relations', await tokenOf('admin@example.com'));
    const left = await admin.listByReferrerId({ params: { id: campaign.id, x: 100 } });
    expect(left.items).toEqual([]);
    expect((await apiRejection(campaignsOf(viewer).deviceAccess({ params: { id: deviceId } }))).status).toBe(403);
    expect((await apiRejection(campaignsOf(viewer).get({ params: { id: campaign.id } }))).status).toBe(403);
    expect((await campaignsOf(viewer).listMine({ query: {} })).items.map((c) => c.id)).not.toContain(campaign.id);
  });
});
