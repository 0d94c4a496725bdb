import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, RouteFixture } from './authz-fixtures';
import { publicDownloadDevice } from './authz-sensor-data-exports-fixtures';
import type { DemoEmail } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail => `${caller}@example.com` as DemoEmail;

const chartKey = (deviceId: string) => ({
  body: { action: 'getSignedS3Url', params: { bucket: 'chartData', key: `charts/${deviceId}/day/2026-01-01.json` } },
});

/** The authorization matrix's fixtures for the api routes (merged in authz-fixtures.ts). */
export const API_FIXTURES: Record<string, RouteFixture> = {
  // A public device's chart data is anyone's to fetch; a private one's only its members' (and staff's).
  aws: {
    prepare: async () => chartKey(await publicDownloadDevice()),
    owned: async ({ caller }) => chartKey(await deviceOwnedBy(emailOf(caller))),
    foreign: async ({ caller }) =>
      chartKey(await deviceOwnedBy(caller === 'user' ? 'approved@example.com' : 'user@example.com')),
  },
};
