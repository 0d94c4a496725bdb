import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { MapDevice } from '../../../../shared/contracts/devices';
import { apiClient } from '../../lib/api';
import { errorOf, routeKey } from '../../lib/query';

/** The map holds at most this many points; beyond it the page says so (the lists stay paged). */
export const MAP_POINT_LIMIT = 1000;

export interface MapDevices {
  items: MapDevice[];
  loaded: boolean;
  /** More devices have a location than the map holds. */
  truncated: boolean;
  error?: string;
}

/** Page after page of one map scope (the route is paged like every list) up to MAP_POINT_LIMIT. */
const readMap = async (scope: 'visible' | 'mine' | 'all') => {
  const items: MapDevice[] = [];
  let cursor: string | undefined;
  do {
    const page = await apiClient('devices').map({ query: { scope, limit: MAX_PAGE_SIZE, cursor } });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && items.length < MAP_POINT_LIMIT);
  return { items: items.slice(0, MAP_POINT_LIMIT), truncated: !!cursor || items.length > MAP_POINT_LIMIT };
};

/** The devices with a location for one map scope, since a map shows all its points at once. */
export const useMapDevices = (scope: 'visible' | 'mine' | 'all'): MapDevices => {
  const query = useQuery({
    queryKey: routeKey('devices', 'map', { query: { scope } }),
    queryFn: () => readMap(scope),
  });
  return {
    items: query.data?.items ?? [],
    truncated: query.data?.truncated ?? false,
    loaded: !query.isPending,
    error: errorOf(query),
  };
};
