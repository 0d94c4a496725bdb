import type { organizations } from '../../../shared/contracts/organizations';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { OrganizationsDeps } from '../deps';

export const organizationHandlers: AreaHandlers<typeof organizations, OrganizationsDeps> = {
  create: ({ caller, body }, { organizations }) => organizations.create(caller, body),
  listMine: ({ caller, query }, { organizations }) => organizations.listMine(caller, query),
  listAll: ({ query }, { organizations }) => organizations.listAll(query),
  get: ({ caller, params }, { organizations }) => organizations.get(caller, params.id),
  update: ({ caller, params, body, audit }, { organizations }) => organizations.update(caller, params.id, body, audit),
  delete: ({ caller, params, audit }, { organizations }) => organizations.remove(caller, params.id, audit),
  createLogoUpload: ({ caller, params, body }, { organizations }) =>
    organizations.createLogoUpload(caller, params.id, body),
  setLogo: ({ caller, params, body, audit }, { organizations }) =>
    organizations.setLogo(caller, params.id, body.key, audit),
  deleteLogo: ({ caller, params, audit }, { organizations }) => organizations.deleteLogo(caller, params.id, audit),
};
