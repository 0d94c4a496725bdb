import { useMemo } from 'react';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { type AreaClient, createAreaClient } from '../../../shared/contracts/client';
import { accessToken, reportSessionExpired } from './auth';
import { runtimeConfig } from './runtime-config';

export type ApiClient<N extends AreaName> = AreaClient<(typeof AREAS)[N]>;

/** A 401 means the token is gone or no longer accepted: the session ends and the user signs in again. */
const fetchWatchingSession: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status === 401) reportSessionExpired();
  return response;
};

/** The typed client of one service area, built on its contract, sending the caller's access token. */
export const apiClient = <N extends AreaName>(area: N): ApiClient<N> => {
  const baseUrl = runtimeConfig().apiBaseUrls[area];
  if (!baseUrl) throw new Error(`No API base URL is configured for the ${area} area`);
  return createAreaClient(AREAS[area], { baseUrl, getToken: accessToken, fetch: fetchWatchingSession });
};

export const useApi = <N extends AreaName>(area: N): ApiClient<N> => useMemo(() => apiClient(area), [area]);
