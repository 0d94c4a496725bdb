import type { CallerName, FixtureRequest, RouteFixture } from './authz-fixture-types';
import { apiAs, type DemoEmail, subOf, tokenOf, uniqueId } from './stack';

/**
 * The authorization matrix's fixtures for the devices area (functions/devices). Every call acts on a device
 * registered for it (by an administrator) and, where ownership matters, claimed by the caller (`owned`) or by
 * another demo account (`foreign`). The demo devices are never touched.
 */

// Only types from authz-fixtures: it imports this module, and the integration tests import this one first.
const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : `${caller}@example.com`) as DemoEmail;

/** Demo accounts other than `email`, in a fixed order. */
const othersThan = (email: DemoEmail): DemoEmail[] =>
  (['user@example.com', 'approved@example.com', 'distributor@example.com'] as const).filter((e) => e !== email);

const devicesAs = async (email: DemoEmail) => apiAs('devices', await tokenOf(email));

/** Serials are upper-case letters, digits and inner dashes. */
export const freshSerial = (prefix = 'AZ') => uniqueId(prefix).toUpperCase();

/** A registered, unclaimed device and its claim code (registered by an administrator). */
export const registeredDevice = async () => {
  const serial = freshSerial();
  const { device, claimCode } = await (await devicesAs('admin@example.com')).register({
    body: { serial, productLine: 'al30', model: 'AL-30', firmwareVersion: '1.0.0' },
  });
  return { id: device.id, serial, claimCode };
};

/** A device claimed by `email`, optionally public. */
export const deviceOwnedBy = async (email: DemoEmail, { visibility = 'private' as 'public' | 'private' } = {}) => {
  const { id, serial, claimCode } = await registeredDevice();
  const owner = await devicesAs(email);
  await owner.claim({ body: { serial, claimCode } });
  if (visibility === 'public') await owner.update({ params: { id }, body: { dataVisibility: 'public' } });
  return id;
};

type Whose = 'owned' | 'foreign';

/** The owner the fixture gives the device: the caller, or another demo account. */
const ownerFor = (caller: CallerName, whose: Whose): DemoEmail =>
  whose === 'owned' ? emailOf(caller) : othersThan(emailOf(caller))[0]!;

/** A route on one device whose success depends on the caller's relation to it. */
const onDevice = (request: (id: string, owner: DemoEmail, caller: CallerName) => Promise<FixtureRequest>) => {
  const make =
    (whose: Whose) =>
    async ({ caller }: { caller: CallerName }) => {
      const owner = ownerFor(caller, whose);
      return request(await deviceOwnedBy(owner), owner, caller);
    };
  return { prepare: make('owned'), owned: make('owned'), foreign: make('foreign') } satisfies RouteFixture;
};

export const DEVICES_FIXTURES: Record<string, RouteFixture> = {
  register: {
    prepare: async () => ({
      body: { serial: freshSerial(), productLine: 'sd1', model: 'SD-1', firmwareVersion: '1.0.0' },
    }),
  },
  claim: {
    prepare: async () => {
      const { serial, claimCode } = await registeredDevice();
      return { body: { serial, claimCode } };
    },
  },
  listMine: { prepare: async () => ({ query: { limit: 5 } }) },
  listAll: { prepare: async () => ({ query: { limit: 5 } }) },
  map: { prepare: async () => ({ query: { limit: 5 } }) },
  get: {
    // Public: every caller, a guest included, may read it.
    prepare: async () => ({ params: { id: await deviceOwnedBy('approved@example.com', { visibility: 'public' }) } }),
    owned: async ({ caller }) => ({ params: { id: await deviceOwnedBy(emailOf(caller)) } }),
    foreign: async ({ caller }) => ({ params: { id: await deviceOwnedBy(ownerFor(caller, 'foreign')) } }),
  },
  update: onDevice(async (id) => ({ params: { id }, body: { name: 'Matrix device' } })),
  transfer: onDevice(async (id, owner) => ({
    params: { id },
    body: { newOwnerId: await subOf(othersThan(owner).at(-1)!) },
  })),
  retire: onDevice(async (id) => ({ params: { id } })),
  listFirmwareUpdates: onDevice(async (id) => ({ params: { id } })),
  listCredentials: onDevice(async (id) => ({ params: { id }, query: { limit: 5 } })),
  createCredential: onDevice(async (id) => ({ params: { id } })),
  rotateCredentials: onDevice(async (id) => ({ params: { id } })),
  revokeCredential: onDevice(async (id, owner) => {
    const { credentialId } = await (await devicesAs(owner)).createCredential({ params: { id } });
    return { params: { id, credentialId } };
  }),
};
