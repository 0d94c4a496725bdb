import type { system } from '../../../shared/contracts/system';
import type { AreaPart } from '../../_shared/http/http-area';
import type { SystemDeps } from '../deps';

/** The cache files and the item look-up (docs/system.md). */
export const cacheHandlers = {
  listCacheFiles: ({ params }, { cacheFiles }) => cacheFiles.list(params.deviceId),
  loadCacheFiles: ({ caller, body }, { cacheFiles }) => cacheFiles.load(caller, body.options),
  deleteItemsFromCache: ({ caller, body }, { cacheFiles }) =>
    cacheFiles.evict(caller, body.pathObjectsArray, body.options),
  listLookupTables: (_request, { itemLookup }) => ({ items: itemLookup.tables() }),
  batchGetDdbItems: ({ body }, { itemLookup }) => itemLookup.batchGet(body.params.RequestItems),
} satisfies AreaPart<typeof system, SystemDeps>;
