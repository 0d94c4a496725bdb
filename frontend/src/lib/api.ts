import { useMemo } from 'react';
import { createLru, ENDPOINT_CACHE_SIZE } from '../../../shared/config/endpoints';
import { api } from '../../../shared/contracts/api';
import type { AREAS, AreaName } from '../../../shared/contracts/areas';
import { campaigns } from '../../../shared/contracts/campaigns';
import { ApiError, type AreaClient, createAreaClient, resolveApiBaseUrl } from '../../../shared/contracts/client';
import { customer } from '../../../shared/contracts/customer';
import { datasets } from '../../../shared/contracts/datasets';
import type { Area } from '../../../shared/contracts/define-route';
import { devices } from '../../../shared/contracts/devices';
import { notifications } from '../../../shared/contracts/notifications';
import { organizations } from '../../../shared/contracts/organizations';
import { relations } from '../../../shared/contracts/relations';
import { sensorData } from '../../../shared/contracts/sensor-data';
import { system } from '../../../shared/contracts/system';
import { users } from '../../../shared/contracts/users';
import { type ErrorLog, logAndRethrow } from '../../../shared/errors/handling';
import { accessToken, reportSessionExpired } from './auth';
import { runtimeConfig } from './runtime-config';

export type ApiClient<N extends AreaName> = AreaClient<(typeof AREAS)[N]>;

/**
 * Areas no guest's page calls (staff screens, devices, a signed-in person's alerts): their contracts are loaded with
 * the first call, so every guest's first page does not carry them (test/support/web-budgets.ts). The compiler holds
 * this list and the next one to every area.
 */
const STAFF_AREAS = {
  alerts: () => import('../../../shared/contracts/alerts').then((m) => m.alerts),
  'code-releases': () => import('../../../shared/contracts/code-releases').then((m) => m.codeReleases),
  // Devices call it, never a browser; kept only so the client is typed for every area.
  'data-ingress': () => import('../../../shared/contracts/data-ingress').then((m) => m.dataIngress),
  migrate: () => import('../../../shared/contracts/migrate').then((m) => m.migrate),
  // Only the Integrations panels call it, and its event schemas are not small.
  integrations: () => import('../../../shared/contracts/integrations').then((m) => m.integrations),
} satisfies Partial<Record<AreaName, () => Promise<Area>>>;
type StaffArea = keyof typeof STAFF_AREAS;

const OTHER_AREAS = {
  campaigns,
  customer,
  datasets,
  devices,
  notifications,
  organizations,
  relations,
  'sensor-data': sensorData,
  system,
  users,
  api,
} satisfies Record<Exclude<AreaName, StaffArea>, Area>;

const isStaffArea = (area: AreaName): area is StaffArea => area in STAFF_AREAS;

/** A 401 means the token is gone or no longer accepted: the session ends and the user signs in again. */
const fetchWatchingSession: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status === 401) reportSessionExpired();
  return response;
};

/**
 * Spec §8: API wrapper calls log and rethrow. A 4xx is the API's answer to this request (the screen shows it), so
 * it is logged quietly; a 5xx or a failed fetch is the kind of failure someone should look at.
 */
const logApiFailure: ErrorLog = (what, error) => {
  if (error instanceof ApiError && error.status < 500) console.debug(`${what}: ${error.status} ${error.message}`);
  else console.error(`${what} failed`, error);
};

type Calls = Record<string, (request: unknown) => Promise<unknown>>;

const logged = (area: AreaName, route: string, call: () => Promise<unknown>) =>
  logAndRethrow(`${area}.${route}`, call, logApiFailure);

/**
 * Each route of the area as a logged call. A staff area's contract is loaded with its first call: every route call
 * is asynchronous anyway, so the first one waits for the contract's chunk too.
 */
const areaCalls = (area: AreaName, options: Parameters<typeof createAreaClient>[1]): Calls => {
  if (!isStaffArea(area)) {
    const client = createAreaClient(OTHER_AREAS[area as Exclude<AreaName, StaffArea>], options) as unknown as Calls;
    return Object.fromEntries(
      Object.entries(client).map(([route, call]) => [
        route,
        (request: unknown) => logged(area, route, () => call(request)),
      ]),
    );
  }
  let client: Promise<Calls> | undefined;
  const load = (): Promise<Calls> => {
    client ??= STAFF_AREAS[area]().then((contract) => createAreaClient(contract, options) as unknown as Calls);
    return client;
  };
  return new Proxy({} as Calls, {
    // Not `then`: the client must never look like a promise to whatever holds it.
    get: (_target, route) =>
      typeof route === 'string' && route !== 'then'
        ? (request: unknown) => logged(area, route, async () => (await load())[route]!(request))
        : undefined,
  });
};

/** Each area's client once per base URL (spec §9: at most 50 endpoints kept). */
const clients = createLru<unknown>(ENDPOINT_CACHE_SIZE);

/**
 * An area's base URL, the runtime configuration's (spec §8: 'API category not configured', 'API {name} does not
 * exist').
 */
const areaBaseUrl = (area: AreaName) => resolveApiBaseUrl(runtimeConfig().apiBaseUrls, area);

/** The typed client of one service area, built on its contract, sending the caller's access token. */
export const apiClient = <N extends AreaName>(area: N): ApiClient<N> => {
  const baseUrl = areaBaseUrl(area);
  const key = `${area} ${baseUrl}`;
  const cached = clients.get(key) as ApiClient<N> | undefined;
  if (cached) return cached;
  const client = areaCalls(area, { baseUrl, getToken: accessToken, fetch: fetchWatchingSession }) as ApiClient<N>;
  clients.set(key, client);
  return client;
};

/**
 * One area's client that sends this token and no other: work that runs as the person while their sign-out here is
 * under way (auth.ts `onSignOut`), when the ordinary client already calls as the guest.
 */
export const apiClientWithToken = <N extends AreaName>(area: N, token: string): ApiClient<N> =>
  areaCalls(area, {
    baseUrl: areaBaseUrl(area),
    getToken: async () => token,
    fetch: fetchWatchingSession,
  }) as ApiClient<N>;

export const useApi = <N extends AreaName>(area: N): ApiClient<N> => useMemo(() => apiClient(area), [area]);
