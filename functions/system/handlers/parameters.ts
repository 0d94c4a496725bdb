import type { system } from '../../../shared/contracts/system';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { SystemDeps } from '../deps';

export const parameterHandlers: Omit<
  AreaHandlers<typeof system, SystemDeps>,
  'listCacheFiles' | 'loadCacheFiles' | 'deleteItemsFromCache' | 'listLookupTables' | 'batchGetDdbItems'
> = {
  listParameters: ({ query }, { parameters }) => parameters.list(query),
  getParameter: ({ params }, { parameters }) => parameters.get(params.id),
  createParameter: ({ body }, { parameters }) => parameters.create(body),
  updateParameter: ({ params, body }, { parameters }) => parameters.update(params.id, body.value),
  deleteParameter: ({ params }, { parameters }) => parameters.remove(params.id),
  getTierFeatures: (_request, { tierFeatures }) => tierFeatures.get(),
  putTierFeatures: ({ body }, { tierFeatures }) => tierFeatures.put(body),
};
