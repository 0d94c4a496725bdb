import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, RouteFixture } from './authz-fixture-types';
import { setTier } from './sensor-data';
import type { DemoEmail } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail => `${caller}@example.com` as DemoEmail;

/**
 * The current month's hourly chart file, on Tier 2: its 365 days hold a whole month on any day, so the file is
 * always wholly visible (a chart file is signed only then) and the fixture does not depend on the date.
 */
const chartKey = async (device: Promise<string>) => {
  const deviceId = await device;
  await setTier(deviceId, 'tier2');
  const month = new Date().toISOString().slice(0, 7);
  return {
    body: { action: 'getSignedS3Url', params: { bucket: 'chartData', key: `charts/${deviceId}/hour/${month}.json` } },
  };
};

let shared: Promise<string> | undefined;
const publicDevice = (): Promise<string> => {
  shared ??= deviceOwnedBy('distributor@example.com', { visibility: 'public' });
  return shared;
};

/** The authorization matrix's fixtures for the api routes (merged in authz-fixtures.ts). */
export const API_FIXTURES: Record<string, RouteFixture> = {
  // A public device's chart data is anyone's to fetch; a private one's only its members' (and staff's).
  aws: {
    prepare: async () => chartKey(publicDevice()),
    owned: async ({ caller }) => chartKey(deviceOwnedBy(emailOf(caller))),
    foreign: async ({ caller }) =>
      chartKey(deviceOwnedBy(caller === 'user' ? 'approved@example.com' : 'user@example.com')),
  },
};
