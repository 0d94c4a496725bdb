import { useEffect, useState } from 'react';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { MapDevice } from '../../../../shared/contracts/devices';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';

/** The map holds at most this many points; beyond it the page says so (the lists stay paged). */
export const MAP_POINT_LIMIT = 1000;

export interface MapDevices {
  items: MapDevice[];
  loaded: boolean;
  /** More devices have a location than the map holds. */
  truncated: boolean;
  error?: string;
}

/**
 * The devices with a location for one map scope: page after page (the route is paged like every list) up to
 * MAP_POINT_LIMIT, since a map shows all its points at once. `version` reloads.
 */
export const useMapDevices = (scope: 'visible' | 'mine' | 'all' | undefined, version = 0): MapDevices => {
  const devices = useApi('devices');
  const [state, setState] = useState<MapDevices>({ items: [], loaded: false, truncated: false });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `version` is a reason to fetch again
  useEffect(() => {
    if (!scope) return;
    let active = true;
    (async () => {
      const items: MapDevice[] = [];
      let cursor: string | undefined;
      do {
        const page = await devices.map({ query: { scope, limit: MAX_PAGE_SIZE, cursor } });
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor && items.length < MAP_POINT_LIMIT && active);
      return { items: items.slice(0, MAP_POINT_LIMIT), truncated: !!cursor || items.length > MAP_POINT_LIMIT };
    })().then(
      ({ items, truncated }) => active && setState({ items, truncated, loaded: true }),
      (failure: unknown) =>
        active && setState({ items: [], truncated: false, loaded: true, error: errorMessage(failure) }),
    );
    return () => {
      active = false;
    };
  }, [devices, scope, version]);

  return state;
};
