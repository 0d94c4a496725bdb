import { createCredentialVerifier } from '../../../functions/_shared/devices/credential-verifier';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { deviceOwnedBy, freshSerial, registeredDevice } from '../../support/authz-devices-fixtures';
import { freshUser } from '../../support/people';
import { freshDevice, ingest } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, everyPage, stack, tokenOf } from '../../support/stack';

/**
 * The devices area through the local gateway, against the emulators: registration, claiming, transfer,
 * retirement, ingress credentials (verified against the real table by the verifier data ingress will use),
 * and who may see a device.
 */

const devicesAs = (token?: string) => apiAs('devices', token);
const asAdmin = async () => devicesAs(await tokenOf('admin@example.com'));
const verifier = () =>
  createCredentialVerifier({ db: documentClient(), tableName: stack().tables.deviceCredentials!, recordUse: true });

describe('registration and claiming', () => {
  it('registers a serial once (409 after), lets a distributor register, and claims once (409 after)', async () => {
    const serial = freshSerial('REG');
    const distributor = devicesAs(await tokenOf('distributor@example.com'));
    const { device, claimCode } = await distributor.register({
      body: { serial, productLine: 'al60', model: 'AL-60', firmwareVersion: '3.1.0' },
    });
    expect(device).toMatchObject({ id: `dev-${serial.toLowerCase()}`, state: 'provisioned', status: 'provisioned' });
    const again = await apiRejection(
      (await asAdmin()).register({ body: { serial, productLine: 'al60', model: 'AL-60', firmwareVersion: '3.1.0' } }),
    );
    expect([again.status, again.message]).toEqual([409, MESSAGES.deviceSerialRegistered(serial)]);

    const first = await freshUser({ prefix: 'claimer' });
    const second = await freshUser({ prefix: 'claimer' });
    const claimed = await devicesAs(first.token).claim({ body: { serial: serial.toLowerCase(), claimCode } });
    expect(claimed).toMatchObject({ ownerId: first.id, state: 'active', access: 'own' });

    const twice = await apiRejection(devicesAs(second.token).claim({ body: { serial, claimCode } }));
    expect([twice.status, twice.message]).toEqual([409, MESSAGES.deviceAlreadyClaimed]);

    const mine = await devicesAs(first.token).listMine({ query: { limit: 10 } });
    expect(mine.items.map((d) => [d.id, d.role])).toEqual([[device.id, 'device-owner']]);
    const relations = await apiAs('relations', first.token).get({
      params: { id: relationId('device-owner', device.id, first.id) },
    });
    expect(relations.referentId).toBe(first.id);
  });

  it('refuses a wrong code and an unknown serial with the same 403, without telling whether it exists', async () => {
    const { serial } = await registeredDevice();
    const api = devicesAs(await tokenOf('user@example.com'));
    const wrong = await apiRejection(api.claim({ body: { serial, claimCode: 'AAAA-BBBB-CCCC' } }));
    const unknown = await apiRejection(
      api.claim({ body: { serial: freshSerial('NONE'), claimCode: 'AAAA-BBBB-CCCC' } }),
    );
    expect([wrong.status, wrong.message]).toEqual([403, MESSAGES.deviceClaimRefused]);
    expect([unknown.status, unknown.message]).toEqual([403, MESSAGES.deviceClaimRefused]);
  });

  it('refuses a malformed serial with a 400 that says why', async () => {
    const error = await apiRejection(
      (await asAdmin()).register({
        body: { serial: 'a/b', productLine: 'al30', model: 'AL-30', firmwareVersion: '1.0.0' },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('Serial');
  });
});

describe('transfer', () => {
  it('moves ownership: the old owner loses management on the next request, the new owner gains it', async () => {
    const oldOwner = await freshUser({ prefix: 'owner' });
    const newOwner = await freshUser({ prefix: 'owner' });
    const { serial, claimCode, id } = await registeredDevice();
    await devicesAs(oldOwner.token).claim({ body: { serial, claimCode } });
    await devicesAs(oldOwner.token).update({ params: { id }, body: { name: 'Before' } });

    expect(
      await devicesAs(oldOwner.token).transfer({ params: { id }, body: { newOwnerId: newOwner.id } }),
    ).toMatchObject({ ownerId: newOwner.id, access: 'none' });

    const refused = await apiRejection(devicesAs(oldOwner.token).update({ params: { id }, body: { name: 'Mine?' } }));
    expect(refused.status).toBe(403);
    expect(await devicesAs(newOwner.token).update({ params: { id }, body: { name: 'After' } })).toMatchObject({
      name: 'After',
      access: 'own',
    });
    expect((await devicesAs(newOwner.token).listMine({ query: { limit: 5 } })).items.map((d) => d.id)).toEqual([id]);
    expect((await devicesAs(oldOwner.token).listMine({ query: { limit: 5 } })).items).toEqual([]);
  });

  it('refuses a transfer to someone the platform does not know (404) and by a non-owner (403)', async () => {
    const owner = await freshUser({ prefix: 'owner' });
    const { serial, claimCode, id } = await registeredDevice();
    await devicesAs(owner.token).claim({ body: { serial, claimCode } });
    const ghost = await apiRejection(
      devicesAs(owner.token).transfer({ params: { id }, body: { newOwnerId: 'no-such-user-id' } }),
    );
    expect([ghost.status, ghost.message]).toEqual([404, MESSAGES.deviceNewOwnerMissing('no-such-user-id')]);
    const stranger = await apiRejection(
      devicesAs(await tokenOf('user@example.com')).transfer({ params: { id }, body: { newOwnerId: owner.id } }),
    );
    expect(stranger.status).toBe(403);
  });
});

describe('ingress credentials and retirement', () => {
  it('shows a secret once, stores its hash, verifies it, rotates, and stops verifying when the device retires', async () => {
    const owner = await freshUser({ prefix: 'owner' });
    const { serial, claimCode, id } = await registeredDevice();
    const api = devicesAs(owner.token);
    await api.claim({ body: { serial, claimCode } });

    const first = await api.createCredential({ params: { id } });
    expect(first.token).toBe(`${first.credentialId}.${first.secret}`);
    expect(await verifier().verifyCredential(first.token)).toBe(id);
    expect(await verifier().verifyCredential(`${first.credentialId}.${'A'.repeat(43)}`)).toBeUndefined();

    const listed = await api.listCredentials({ params: { id }, query: { limit: 10 } });
    expect(listed.items).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(first.secret);
    expect(listed.items[0]!.lastUsed).toEqual(expect.any(Number));

    const rotated = await api.rotateCredentials({ params: { id } });
    expect(await verifier().verifyCredential(first.token)).toBeUndefined();
    expect(await verifier().verifyCredential(rotated.token)).toBe(id);
    expect(
      (await api.listCredentials({ params: { id }, query: { limit: 10 } })).items.map((c) => c.credentialId),
    ).toEqual([rotated.credentialId]);

    expect(await api.retire({ params: { id } })).toMatchObject({ state: 'retired', status: 'retired' });
    expect(await verifier().verifyCredential(rotated.token)).toBeUndefined();

    const change = await apiRejection(api.update({ params: { id }, body: { name: 'Still here' } }));
    expect([change.status, change.message]).toEqual([409, MESSAGES.deviceRetiredChange]);
    const credential = await apiRejection(api.createCredential({ params: { id } }));
    expect(credential.status).toBe(409);
    const claim = await apiRejection(api.claim({ body: { serial, claimCode } }));
    expect(claim.status).toBe(409);
    expect(await (await asAdmin()).update({ params: { id }, body: { name: 'Archived' } })).toMatchObject({
      name: 'Archived',
    });
  });

  it("shows when a credential was last used: a device's readings sent with it set the time; the other stays unused", async () => {
    const owner = await freshUser({ prefix: 'owner' });
    const device = await freshDevice({ ownerToken: owner.token });
    const api = devicesAs(owner.token);
    const spare = await api.createCredential({ params: { id: device.id } });
    const before = Date.now();
    await ingest(device, [{ timestamp: before - 60_000, values: { pm2_5: 4 } }]);

    const listed = await api.listCredentials({ params: { id: device.id }, query: { limit: 10 } });
    const used = listed.items.find((c) => c.credentialId === device.credential.split('.')[0]);
    expect(used?.lastUsed).toBeGreaterThanOrEqual(before);
    expect(listed.items.find((c) => c.credentialId === spare.credentialId)?.lastUsed).toBeUndefined();
  });

  it('refuses credentials to someone who does not manage the device', async () => {
    const id = await deviceOwnedBy('approved@example.com');
    const error = await apiRejection(devicesAs(await tokenOf('user@example.com')).createCredential({ params: { id } }));
    expect(error.status).toBe(403);
  });
});

describe('who sees a device', () => {
  it('shows a public device to a guest, location per its privacy; a private one is 401 to a guest, 403 to others', async () => {
    const owner = await freshUser({ prefix: 'owner' });
    const { serial, claimCode, id } = await registeredDevice();
    const api = devicesAs(owner.token);
    await api.claim({ body: { serial, claimCode } });
    await api.update({
      params: { id },
      body: { location: { lat: 47.612345, lon: -122.334567 }, locationPrivacy: 'approximate' },
    });

    expect((await apiRejection(devicesAs().get({ params: { id } }))).status).toBe(401);
    expect((await apiRejection(devicesAs(await tokenOf('user@example.com')).get({ params: { id } }))).status).toBe(403);

    await api.update({ params: { id }, body: { dataVisibility: 'public' } });
    expect(await devicesAs().get({ params: { id } })).toMatchObject({
      access: 'none',
      location: { lat: 47.61, lon: -122.33 },
      locationApproximate: true,
    });
    expect((await api.get({ params: { id } })).location).toEqual({ lat: 47.612345, lon: -122.334567 });

    const map = await devicesAs().map({ query: { limit: 100, scope: 'public' } });
    expect(map.items.every((d) => d.dataVisibility === 'public')).toBe(true);
  });

  it('lists every device for staff and refuses the staff list to others', async () => {
    const { id } = await registeredDevice();
    const staff = devicesAs(await tokenOf('employee@example.com'));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await staff.listAll({ query: { limit: 100, productLine: 'al30', ...(cursor ? { cursor } : {}) } });
      seen.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor && !seen.includes(id));
    expect(seen).toContain(id);
    expect((await apiRejection(devicesAs(await tokenOf('approved@example.com')).listAll({ query: {} }))).status).toBe(
      403,
    );
  });

  it('has the demo devices: Uma’s private station and April’s public buoy on the map', async () => {
    const user = devicesAs(await tokenOf('user@example.com'));
    const mine = await everyPage((cursor) => user.listMine({ query: { limit: 100, ...(cursor ? { cursor } : {}) } }));
    expect(mine.map((d) => [d.id, d.role])).toEqual(
      expect.arrayContaining([
        ['demo-device-1', 'device-owner'],
        ['demo-device-2', 'device-user'],
      ]),
    );
    expect(await devicesAs().get({ params: { id: 'demo-device-2' } })).toMatchObject({ dataVisibility: 'public' });
    const map = await everyPage((cursor) =>
      user.map({ query: { limit: 100, scope: 'mine', ...(cursor ? { cursor } : {}) } }),
    );
    expect(map.map((d) => d.id)).toEqual(expect.arrayContaining(['demo-device-1', 'demo-device-2']));
    const mineIds = new Set(mine.map((d) => d.id));
    expect(map.filter((d) => !mineIds.has(d.id))).toEqual([]);
  });
});
