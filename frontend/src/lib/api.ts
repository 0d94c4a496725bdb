import { useMemo } from 'react';
import { createLru, ENDPOINT_CACHE_SIZE } from '../../../shared/config/endpoints';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { ApiError, type AreaClient, createAreaClient, resolveApiBaseUrl } from '../../../shared/contracts/client';
import { type ErrorLog, logAndRethrow } from '../../../shared/errors/handling';
import { accessToken, reportSessionExpired } from './auth';
import { runtimeConfig } from './runtime-config';

export type ApiClient<N extends AreaName> = AreaClient<(typeof AREAS)[N]>;

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

const withLogging = <C extends Record<string, (request: never) => Promise<unknown>>>(area: string, client: C): C =>
  Object.fromEntries(
    Object.entries(client).map(([name, call]) => [
      name,
      (request: never) => logAndRethrow(`${area}.${name}`, () => call(request), logApiFailure),
    ]),
  ) as C;

/** Each area's client once per base URL (spec §9: at most 50 endpoints kept). */
const clients = createLru<unknown>(ENDPOINT_CACHE_SIZE);

/**
 * The typed client of one service area, built on its contract, sending the caller's access token. Its base URL is
 * the runtime configuration's (spec §8: 'API category not configured', 'API {name} does not exist').
 */
export const apiClient = <N extends AreaName>(area: N): ApiClient<N> => {
  const baseUrl = resolveApiBaseUrl(runtimeConfig().apiBaseUrls, area);
  const key = `${area} ${baseUrl}`;
  const cached = clients.get(key) as ApiClient<N> | undefined;
  if (cached) return cached;
  const client = withLogging(
    area,
    createAreaClient(AREAS[area], { baseUrl, getToken: accessToken, fetch: fetchWatchingSession }),
  ) as ApiClient<N>;
  clients.set(key, client);
  return client;
};

export const useApi = <N extends AreaName>(area: N): ApiClient<N> => useMemo(() => apiClient(area), [area]);
