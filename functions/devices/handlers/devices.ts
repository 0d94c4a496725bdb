import type { devices } from '../../../shared/contracts/devices';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { DevicesDeps } from '../deps';

export const deviceHandlers: AreaHandlers<typeof devices, DevicesDeps> = {
  register: ({ caller, body }, { devices }) => devices.register(caller, body),
  claim: ({ caller, body }, { devices }) => devices.claim(caller, body),
  listMine: ({ caller, query }, { devices }) => devices.listMine(caller, query),
  listAll: ({ query }, { devices }) => devices.listAll(query),
  map: ({ caller, query }, { devices }) => devices.map(caller, query),
  get: ({ caller, params }, { devices }) => devices.get(caller, params.id),
  update: ({ caller, params, body, audit }, { devices }) => devices.update(caller, params.id, body, audit),
  transfer: ({ caller, params, body, audit }, { devices }) =>
    devices.transfer(caller, params.id, body.newOwnerId, audit),
  retire: ({ caller, params, audit }, { devices }) => devices.retire(caller, params.id, audit),
  listFirmwareUpdates: ({ caller, params }, { firmwareUpdates }) => firmwareUpdates.list(caller, params.id),
  listCredentials: ({ caller, params, query }, { credentials }) => credentials.list(caller, params.id, query),
  createCredential: ({ caller, params }, { credentials }) => credentials.create(caller, params.id),
  rotateCredentials: ({ caller, params }, { credentials }) => credentials.rotate(caller, params.id),
  revokeCredential: ({ caller, params }, { credentials }) => credentials.revoke(caller, params.id, params.credentialId),
};
