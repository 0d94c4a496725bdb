import type { system } from '../../../shared/contracts/system';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { SystemDeps } from '../deps';

type CacheRoutes =
  | 'listCacheFiles'
  | 'loadCacheFiles'
  | 'deleteItemsFromCache'
  | 'listLookupTables'
  | 'batchGetDdbItems';

/** The cache files and the item look-up (docs/system.md). */
export const cacheHandlers: Pick<AreaHandlers<typeof system, SystemDeps>, CacheRoutes> = {
  listCacheFiles: ({ params }, { cacheFiles }) => cacheFiles.list(params.deviceId),
  loadCacheFiles: ({ caller, body }, { cacheFiles }) => cacheFiles.load(caller, body.options),
  deleteItemsFromCache: ({ caller, body }, { cacheFiles }) =>
    cacheFiles.evict(caller, body.pathObjectsArray, body.options),
  listLookupTables: (_request, { itemLookup }) => ({ items: itemLookup.tables() }),
  batchGetDdbItems: ({ body }, { itemLookup }) => itemLookup.batchGet(body.params.RequestItems),
};
