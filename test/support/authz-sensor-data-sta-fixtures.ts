import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, RouteFixture } from './authz-fixture-types';
import { freshUser } from './people';
import { freshDevice, setTier } from './sensor-data';
import { apiAs, type DemoEmail } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail => `${caller}@example.com` as DemoEmail;
const otherThan = (caller: CallerName): DemoEmail => (caller === 'user' ? 'approved@example.com' : 'user@example.com');

/** A Thing's path: the one object a SensorThings path names is its device. */
const thingPath = (deviceId: string) => ({ params: { path: `Things('${deviceId}')` } });

/** A key of a fresh person who owns a Tier 1 device (their own allowance pays for other people's public devices). */
const keyWithAllowance = async () => {
  const owner = await freshUser({ prefix: 'authz-sta-key' });
  const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
  await setTier(device.id, 'tier1');
  return (await apiAs('sensor-data', owner.token).createApiKey({ body: { name: 'authz' } })).key;
};

const publicTier1 = async () => {
  const device = await freshDevice({ productLine: 'sd1', visibility: 'public' });
  await setTier(device.id, 'tier1');
  return device.id;
};

const foreignTier1 = async () => {
  const owner = await freshUser({ prefix: 'authz-sta-owner' });
  const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
  await setTier(device.id, 'tier1');
  return device.id;
};

/** The authorization matrix's fixtures for the SensorThings routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_STA_FIXTURES: Record<string, RouteFixture> = {
  staRoot: { prepare: async () => ({}) },
  // A public device's Thing for everyone; a private one for its owner (owned), not for another person (foreign).
  staResource: {
    prepare: async () => thingPath(await deviceOwnedBy('approved@example.com', { visibility: 'public' })),
    owned: async ({ caller }) => thingPath(await deviceOwnedBy(emailOf(caller))),
    foreign: async ({ caller }) => thingPath(await deviceOwnedBy(otherThan(caller))),
  },
  apiStaRoot: {
    prepare: async () => ({}),
    credential: async () => ({ headers: { 'x-api-key': await keyWithAllowance() } }),
  },
  apiStaResource: {
    prepare: async () => thingPath(await publicTier1()),
    owned: async () => thingPath(await publicTier1()),
    foreign: async () => thingPath(await foreignTier1()),
    credential: async () => ({ headers: { 'x-api-key': await keyWithAllowance() } }),
  },
};
