import type { relations } from '../../../shared/contracts/relations';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { RelationsDeps } from '../deps';

export const relationHandlers: AreaHandlers<typeof relations, RelationsDeps> = {
  create: ({ caller, body }, { relations }) => relations.create(caller, body),
  list: ({ query }, { relations }) => relations.list(query),
  listPage: ({ params, query }, { relations }) => relations.list({ ...query, limit: params.x }),
  listTypes: (_request, { relations }) => relations.listTypes(),
  listByParameters: ({ caller, body }, { relations }) => relations.listByParameters(caller, body),
  listByReferrerId: ({ caller, params, query }, { relations }) =>
    relations.listBy(caller, 'referrer', params.id, { ...query, limit: params.x }),
  listByReferentId: ({ caller, params, query }, { relations }) =>
    relations.listBy(caller, 'referent', params.id, { ...query, limit: params.x }),
  get: ({ caller, params }, { relations }) => relations.get(caller, params.id),
  update: ({ caller, params, body, audit }, { relations }) => relations.changeType(caller, params.id, body.type, audit),
  delete: ({ caller, params, audit }, { relations }) => relations.remove(caller, params.id, audit),
  names: ({ caller, body }, { names }) => names.names(caller, body),
  migrate: ({ query }, { relations }) => relations.migrate(query),
};
