import { useMemo } from 'react';
import { api } from '../../../shared/contracts/api';
import type { AREAS, AreaName } from '../../../shared/contracts/areas';
import { campaigns } from '../../../shared/contracts/campaigns';
import { type AreaClient, createAreaClient } from '../../../shared/contracts/client';
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
import { accessToken, reportSessionExpired } from './auth';
import { runtimeConfig } from './runtime-config';

export type ApiClient<N extends AreaName> = AreaClient<(typeof AREAS)[N]>;

/**
 * Areas no guest's page calls (staff screens, devices): their contracts are loaded with the first call, so every
 * guest's first page does not carry them (test/support/web-budgets.ts). The compiler holds this list and the next
 * one to every area.
 */
const STAFF_AREAS = {
  'code-releases': () => import('../../../shared/contracts/code-releases').then((m) => m.codeReleases),
  // Devices call it, never a browser; kept only so the client is typed for every area.
  'data-ingress': () => import('../../../shared/contracts/data-ingress').then((m) => m.dataIngress),
  migrate: () => import('../../../shared/contracts/migrate').then((m) => m.migrate),
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

/** A 401 means the token is gone or no longer accepted: the session ends and the user signs in again. */
const fetchWatchingSession: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status === 401) reportSessionExpired();
  return response;
};

const isStaffArea = (area: AreaName): area is StaffArea => area in STAFF_AREAS;

/** The typed client of one service area, built on its contract, sending the caller's access token. */
export const apiClient = <N extends AreaName>(area: N): ApiClient<N> => {
  const baseUrl = runtimeConfig().apiBaseUrls[area];
  if (!baseUrl) throw new Error(`No API base URL is configured for the ${area} area`);
  const options = { baseUrl, getToken: accessToken, fetch: fetchWatchingSession };
  if (!isStaffArea(area)) return createAreaClient(OTHER_AREAS[area as Exclude<AreaName, StaffArea>], options) as never;
  // Every route call is asynchronous anyway: the first one waits for the contract's chunk too.
  let client: Promise<Record<string, (request: unknown) => Promise<unknown>>> | undefined;
  const load = () => {
    client ??= STAFF_AREAS[area]().then((contract) => createAreaClient(contract, options) as never);
    return client;
  };
  return new Proxy({} as ApiClient<N>, {
    // Not `then`: the client must never look like a promise to whatever holds it.
    get: (_target, route) =>
      typeof route === 'string' && route !== 'then'
        ? async (request: unknown) => (await load())[route]!(request)
        : undefined,
  });
};

export const useApi = <N extends AreaName>(area: N): ApiClient<N> => useMemo(() => apiClient(area), [area]);
