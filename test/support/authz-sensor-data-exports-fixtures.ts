import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, FixtureContext, RouteFixture } from './authz-fixture-types';
import { setTier } from './sensor-data';
import { apiAs, type DemoEmail, tokenOf } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail => `${caller}@example.com` as DemoEmail;
/** Another demo account than the caller's, to own the `foreign` export. */
const otherThan = (caller: CallerName): DemoEmail => (caller === 'user' ? 'approved@example.com' : 'user@example.com');

/** A private device of `email` whose tier downloads (Tier 1). */
const downloadable = async (email: DemoEmail) => {
  const id = await deviceOwnedBy(email);
  await setTier(id, 'tier1');
  return id;
};

let shared: Promise<string> | undefined;
/** One public AL device with downloads (Tier 1), owned by a demo user: any caller may export its public window. */
export const publicDownloadDevice = (): Promise<string> => {
  shared ??= (async () => {
    const id = await deviceOwnedBy('distributor@example.com', { visibility: 'public' });
    await setTier(id, 'tier1');
    return id;
  })();
  return shared;
};

/** An export of the shared public device made by `email` (undefined: a guest). */
export const exportBy = async (email: DemoEmail | undefined) => {
  const token = email ? await tokenOf(email) : undefined;
  const job = await apiAs('sensor-data', token).createExport({
    params: { id: await publicDownloadDevice() },
    body: { format: 'csv' },
  });
  return job.id;
};

const asCaller = ({ caller }: FixtureContext) => (caller === 'guest' ? undefined : emailOf(caller));

/** The authorization matrix's fixtures for the sensor-data-exports routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_EXPORTS_FIXTURES: Record<string, RouteFixture> = {
  createExport: {
    prepare: async () => ({ params: { id: await publicDownloadDevice() }, body: { format: 'csv' } }),
    // A private device with downloads: its owner exports it, another person is not told it exists.
    owned: async ({ caller }) => ({ params: { id: await downloadable(emailOf(caller)) }, body: { format: 'csv' } }),
    foreign: async ({ caller }) => ({ params: { id: await downloadable(otherThan(caller)) }, body: { format: 'csv' } }),
  },
  getExport: {
    prepare: async (context) => ({ params: { exportId: await exportBy(asCaller(context)) } }),
    owned: async (context) => ({ params: { exportId: await exportBy(asCaller(context)) } }),
    foreign: async ({ caller }) => ({ params: { exportId: await exportBy(otherThan(caller)) } }),
  },
  listMyExports: { prepare: async () => ({ query: { limit: 5 } }) },
};
