import { useQuery } from '@tanstack/react-query';
import type { CacheRebuild } from '../../../../shared/contracts/system';
import { routeKey, routeQuery } from '../../lib/query';
import { rebuildProgress } from './cache-rules';

/** How often the files are read again while a rebuild is under way, and for how long at most. */
const REBUILD_POLL_MS = 2_000;
const REBUILD_WATCH_MS = 120_000;

/** A device's cache files (GET /system/cache-files/{deviceId}). */
export const cacheFilesQuery = (deviceId: string) => routeQuery('system', 'listCacheFiles', { params: { deviceId } });

/**
 * A device's files, read again every 2 s while a rebuild it asked for has files still to write (for at most two
 * minutes: the worker may be behind), so the page shows each file arrive.
 */
export const useCacheFiles = (deviceId: string | undefined, rebuild: CacheRebuild | undefined) =>
  useQuery({
    ...cacheFilesQuery(deviceId ?? ''),
    enabled: deviceId !== undefined,
    refetchInterval: (query) => {
      if (!rebuild || rebuild.deviceId !== deviceId || Date.now() - rebuild.requestedAt > REBUILD_WATCH_MS)
        return false;
      const files = query.state.data?.files;
      return files && rebuildProgress(rebuild, files).done ? false : REBUILD_POLL_MS;
    },
  });

/** What a load or an eviction changes: the device's file list. */
export const cacheFileKeys = (deviceId: string) => [routeKey('system', 'listCacheFiles', { params: { deviceId } })];

/** The tables the look-up reads, with their keys (GET /system/lookup-tables). */
export const useLookupTables = () => useQuery(routeQuery('system', 'listLookupTables', {}));
