import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, RouteFixture } from './authz-fixture-types';
import type { DemoEmail } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail => `${caller}@example.com` as DemoEmail;
/** Another demo account than the caller's, to own the `foreign` device. */
const otherThan = (caller: CallerName): DemoEmail => (caller === 'user' ? 'approved@example.com' : 'user@example.com');

// Guest routes: a public device lets every caller through (the tier gates are in
// test/integration/sensor-data/tiers.test.ts); a private device only its owner (owned), not another person (foreign).
const onPublicDevice = (query?: Record<string, unknown>): RouteFixture => ({
  prepare: async () => ({
    params: { id: await deviceOwnedBy('approved@example.com', { visibility: 'public' }) },
    ...(query ? { query } : {}),
  }),
  owned: async ({ caller }) => ({ params: { id: await deviceOwnedBy(emailOf(caller)) }, ...(query ? { query } : {}) }),
  foreign: async ({ caller }) => ({
    params: { id: await deviceOwnedBy(otherThan(caller)) },
    ...(query ? { query } : {}),
  }),
});

/** The authorization matrix's fixtures for the sensor-data-readings routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_READINGS_FIXTURES: Record<string, RouteFixture> = {
  listReadings: onPublicDevice({ limit: 5 }),
  series: onPublicDevice({ from: Date.now() - 60 * 60 * 1000, width: 100 }),
  dataSummary: onPublicDevice(),
  listTiers: { prepare: async () => ({}) },
};
