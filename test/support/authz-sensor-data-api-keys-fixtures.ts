import type { RouteFixture } from './authz-fixture-types';
import { freshUser } from './people';
import { freshDevice, setTier } from './sensor-data';
import { apiAs } from './stack';

/** A key of a fresh person (never a demo account's: a person holds at most 10 keys, and runs would pile them up). */
const freshKey = async (token?: string) => {
  const owner = token ?? (await freshUser({ prefix: 'authz-key' })).token;
  return apiAs('sensor-data', owner).createApiKey({ body: { name: 'authz' } });
};

/**
 * A key of a fresh person who owns a Tier 1 device: another person's public device counts against their own
 * allowance, which their device's tier gives (docs/decisions/048-api-calls-count-against-the-caller.md).
 */
const freshKeyWithAllowance = async () => {
  const owner = await freshUser({ prefix: 'authz-key' });
  const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
  await setTier(device.id, 'tier1');
  return freshKey(owner.token);
};

/** A public Tier 1 sd1 device: every key and every signed-in person may read it and its usage. */
const publicApiDevice = async () => {
  const device = await freshDevice({ productLine: 'sd1', visibility: 'public' });
  await setTier(device.id, 'tier1');
  return device.id;
};

/** A private Tier 1 sd1 device of a fresh person: no key but its owner's reads it, nobody else sees its usage. */
const privateApiDevice = async () => {
  const owner = await freshUser({ prefix: 'authz-api-owner' });
  const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
  await setTier(device.id, 'tier1');
  return device.id;
};

/** The caller's own private Tier 1 sd1 device. */
const ownApiDevice = async (email: string) => {
  const device = await freshDevice({ productLine: 'sd1', owner: email as never });
  await setTier(device.id, 'tier1');
  return device.id;
};

/** The authorization matrix's fixtures for the sensor-data-api-keys routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_API_KEYS_FIXTURES: Record<string, RouteFixture> = {
  // Twins: each call makes a key for a fresh account with the caller's groups, not for the demo account.
  createApiKey: { twin: true, prepare: async () => ({ body: { name: 'authz key' } }) },
  listApiKeys: { prepare: async () => ({}) },
  revokeApiKey: {
    twin: true,
    // Without a twin (a guest, a forged token) the call is refused before the key is looked at.
    prepare: async ({ self }) => ({ params: { keyId: self ? (await freshKey(self.token)).keyId : 'authzNoKey0' } }),
    owned: async ({ self }) => ({ params: { keyId: (await freshKey(self!.token)).keyId } }),
    foreign: async () => ({ params: { keyId: (await freshKey()).keyId } }),
  },
  apiReadings: {
    prepare: async () => ({ params: { id: await publicApiDevice() }, query: { limit: 5 } }),
    // The credential is a fresh person's key: a public device is theirs to read, a private one of another is not.
    owned: async () => ({ params: { id: await publicApiDevice() }, query: { limit: 5 } }),
    foreign: async () => ({ params: { id: await privateApiDevice() }, query: { limit: 5 } }),
    credential: async () => ({ headers: { 'x-api-key': (await freshKeyWithAllowance()).key } }),
  },
  apiSeries: {
    prepare: async () => ({ params: { id: await publicApiDevice() }, query: { width: 50 } }),
    owned: async () => ({ params: { id: await publicApiDevice() }, query: { width: 50 } }),
    foreign: async () => ({ params: { id: await privateApiDevice() }, query: { width: 50 } }),
    credential: async () => ({ headers: { 'x-api-key': (await freshKeyWithAllowance()).key } }),
  },
  deviceApiUsage: {
    prepare: async () => ({ params: { id: await publicApiDevice() } }),
    owned: async ({ caller }) => ({ params: { id: await ownApiDevice(`${caller}@example.com`) } }),
    foreign: async () => ({ params: { id: await privateApiDevice() } }),
  },
  myApiUsage: { prepare: async () => ({}) },
};
