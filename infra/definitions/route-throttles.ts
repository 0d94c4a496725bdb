// Types only: environments.ts imports this module, and billing functions import environments.ts (the contracts' zod
// schemas must not reach their bundles).
import type { AREAS, AreaName } from '../../shared/contracts/areas';

/**
 * Routes whose every call costs more than a read: background work started, a URL signed, mail sent, a public
 * look-up a stranger may repeat. Each such route gets a method-level throttle below its stage's (API Gateway's
 * `MethodSettings`), so a burst on one of them cannot take the area's Lambda concurrency, the Stripe account's rate
 * limit or the export workers' queue from every other route (docs/decisions/032-edge-and-gradual-deploys.md).
 *
 * A method throttle counts every caller together: it protects the backend, not one client from another. The WAF's
 * rate rule per address (environments.ts `waf`) is the per-client limit.
 */
export const THROTTLE_CLASSES = ['background', 'signing', 'public'] as const;
export type ThrottleClass = (typeof THROTTLE_CLASSES)[number];

/** What the classes mean, for the reader and the decision record. */
export const THROTTLE_CLASS_REASONS: Record<ThrottleClass, string> = {
  background:
    'Starts work that runs for minutes in a worker or reads a whole table (an export, a dataset build, a backup of ' +
    'the user pool): one call costs thousands of reads.',
  signing:
    'Signs an S3 URL (a download, or an upload of a logo or firmware artifact): cheap for us, but each URL hands out ' +
    'bytes served from S3 at our cost.',
  public:
    'Sign-up-adjacent and open to anyone: invitations looked up by id, unsubscribes, device claims by code, Stripe ' +
    'checkout sessions, mail sent on request. The routes a guessing or mailing script would call.',
};

/** Route keys of one area's contract. */
type RouteKeys<A extends AreaName> = Extract<keyof (typeof AREAS)[A]['routes'], string>;

/**
 * The throttled routes, by area and route key (the keys of `shared/contracts/{area}.ts`): a key that is no route of
 * its area does not compile, and `AreaApi` refuses one at synth (so does `test/infra/route-throttles.test.ts`).
 */
export const ROUTE_THROTTLES: { [A in AreaName]?: Partial<Record<RouteKeys<A>, ThrottleClass>> } = {
  'sensor-data': { createExport: 'background' },
  // A backtest reads up to a week of a device's readings (20,000) on every call.
  alerts: { previewRule: 'background' },
  datasets: { createDataset: 'background' },
  users: {
    backupUserPool: 'background',
    getInvite: 'public',
    inviteUser: 'public',
    emailUser: 'public',
  },
  migrate: { runMigrations: 'background' },
  api: { aws: 'signing', checkout: 'public' },
  organizations: { createLogoUpload: 'signing' },
  'code-releases': { createArtifactUpload: 'signing' },
  notifications: { unsubscribe: 'public' },
  devices: { claim: 'public' },
  // Each sends a request to an address the caller chose, as mail sent on request does: a script must not make us
  // hammer someone's server through them.
  integrations: { testWebhook: 'public', replayDelivery: 'public' },
};

/** The throttled routes of one area: route key → class. */
export const routeThrottlesOf = (area: AreaName): Record<string, ThrottleClass> =>
  (ROUTE_THROTTLES[area] ?? {}) as Record<string, ThrottleClass>;

/** Every throttled route as `{area, key}`, for the tests and the check that each names a route. */
export const throttledRoutes = (): { area: AreaName; key: string; throttleClass: ThrottleClass }[] =>
  Object.entries(ROUTE_THROTTLES).flatMap(([area, routes]) =>
    Object.entries(routes ?? {}).map(([key, throttleClass]) => ({
      area: area as AreaName,
      key,
      throttleClass: throttleClass as ThrottleClass,
    })),
  );
