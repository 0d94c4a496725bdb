import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { freshUser, nextSecond } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { freshDevice, setTier } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, subOf, tokenOf, uniqueId } from '../../support/stack';

/**
 * The read path reads the session record, the device, its subscription (and, on an access-cache miss, the caller's
 * relations) in one round trip, and keeps access decisions per Lambda instance (docs/sensor-data.md "Read path").
 * Each guarantee here warms every per-instance cache with successful reads first, makes the change through the API
 * (or, for a tier, as billing writes it), and expects the very next read to see it.
 */

const DAY = 86_400_000;
const reads = (token?: string) => apiAs('sensor-data', token);

/** Two reads, so whatever an instance keeps about this caller and device is kept before the change. */
const warm = async (token: string | undefined, deviceId: string) => {
  for (let i = 0; i < 2; i++) {
    await reads(token).listReadings({ params: { id: deviceId } });
    await reads(token).series({ params: { id: deviceId } });
  }
};

const statusOf = async (promise: Promise<unknown>) => (await apiRejection(promise)).status;

describe('a session change counts on the very next read', () => {
  it("a disabled person's token is refused at once", async () => {
    const person = await freshUser({ prefix: 'reads-disabled' });
    const device = await freshDevice({ ownerToken: person.token });
    await warm(person.token, device.id);

    await apiAs('users', await tokenOf('employee@example.com')).disableUser({ params: { id: person.id } });
    const refused = await apiRejection(reads(person.token).listReadings({ params: { id: device.id } }));
    expect([refused.status, refused.message]).toEqual([401, MESSAGES.accountDisabled]);
    expect(await statusOf(reads(person.token).dataSummary({ params: { id: device.id } }))).toBe(401);
  });

  it('a token from before a global sign-out is refused at once', async () => {
    const person = await freshUser({ prefix: 'reads-signout' });
    const device = await freshDevice({ ownerToken: person.token });
    await warm(person.token, device.id);
    await nextSecond();

    await apiAs('users', person.token).adminUserGlobalSignOut({ params: { id: person.id } });
    const refused = await apiRejection(reads(person.token).series({ params: { id: device.id } }));
    expect([refused.status, refused.message]).toEqual([401, MESSAGES.sessionSignedOut]);
  });

  it('a removed staff role ends its reach at once: the old token reads a private device no more', async () => {
    const staff = await freshUser({ groups: ['Employees'], prefix: 'reads-staff' });
    const device = await freshDevice();
    await warm(staff.token, device.id);
    expect((await reads(staff.token).dataSummary({ params: { id: device.id } })).route).toBe('staff');

    await apiAs('users', await tokenOf('admin@example.com')).removeUserFromGroup({
      params: { id: staff.id, group: 'Employees', actor: await subOf('admin@example.com') },
    });
    expect(await statusOf(reads(staff.token).listReadings({ params: { id: device.id } }))).toBe(403);
  });
});

describe('an access change counts on the very next read', () => {
  it('a revoked device relation closes a private device at once, after a cached grant', async () => {
    const owner = await freshUser({ prefix: 'reads-owner' });
    const member = await freshUser({ prefix: 'reads-member' });
    const device = await freshDevice({ ownerToken: owner.token });
    const relations = apiAs('relations', owner.token);
    await relations.create({ body: { type: 'device-user', referrerId: device.id, referentId: member.id } });
    await warm(member.token, device.id);
    expect((await reads(member.token).dataSummary({ params: { id: device.id } })).route).toBe('relation');

    await relations.delete({ params: { id: relationId('device-user', device.id, member.id) } });
    expect(await statusOf(reads(member.token).listReadings({ params: { id: device.id } }))).toBe(403);
  });

  it("leaving a campaign closes the campaign's private device at once, after a cached grant", async () => {
    const member = await freshUser({ prefix: 'reads-campaign' });
    const device = await freshDevice();
    const campaignId = uniqueId('camp');
    await seedRelation('campaign-device', campaignId, device.id);
    await seedRelation('campaign-user', campaignId, member.id);
    await warm(member.token, device.id);
    expect((await reads(member.token).dataSummary({ params: { id: device.id } })).route).toBe('campaign');

    await apiAs('relations', member.token).delete({
      params: { id: relationId('campaign-user', campaignId, member.id) },
    });
    expect(await statusOf(reads(member.token).series({ params: { id: device.id } }))).toBe(403);
  });

  it('a device made private is closed to guests (401) and strangers (403) at once', async () => {
    const device = await freshDevice({ visibility: 'public' });
    const stranger = await freshUser({ prefix: 'reads-stranger' });
    await warm(undefined, device.id);
    await warm(stranger.token, device.id);

    await apiAs('devices', device.ownerToken).update({
      params: { id: device.id },
      body: { dataVisibility: 'private' },
    });
    expect(await statusOf(reads().listReadings({ params: { id: device.id } }))).toBe(401);
    expect(await statusOf(reads(stranger.token).series({ params: { id: device.id } }))).toBe(403);
  });
});

describe('a tier change counts on the very next read', () => {
  it('a downgrade closes older data at once, an upgrade opens it again', async () => {
    const device = await freshDevice({ visibility: 'public' });
    const now = Date.now();
    await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
      device.id,
      [{ timestamp: now - 20 * DAY, values: { pm2_5: 20 } }],
      now,
    );
    const from = () => Date.now() - 25 * DAY;
    await setTier(device.id, 'tier1');
    for (const token of [undefined, device.ownerToken]) {
      await warm(token, device.id);
      expect((await reads(token).listReadings({ params: { id: device.id }, query: { from: from() } })).items).toEqual([
        { timestamp: now - 20 * DAY, values: { pm2_5: 20 }, quality: { pm2_5: 'good' } },
      ]);
    }

    await setTier(device.id, 'tier0');
    for (const token of [undefined, device.ownerToken]) {
      const refused = await apiRejection(
        reads(token).listReadings({ params: { id: device.id }, query: { from: from() } }),
      );
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('Tier 1 unlocks older data');
      expect((await reads(token).dataSummary({ params: { id: device.id } })).tier.tier).toBe('tier0');
    }

    await setTier(device.id, 'tier1');
    expect(
      (await reads(device.ownerToken).listReadings({ params: { id: device.id }, query: { from: from() } })).items,
    ).toHaveLength(1);
  });
});
