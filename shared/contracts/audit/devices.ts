import { defineAudit, notAudited } from '../define-audit';
import type { devices } from '../devices';
import { deviceIdOf } from '../shapes';

const deviceInPath = { kind: 'device', id: ({ params }: { params: { id: string } }) => params.id } as const;

/**
 * Devices changed by staff (docs/audit.md): registration, edits, transfers, retirement and credentials. Whether a
 * staff member also owns the device cannot be told from the request, so every staff call is recorded.
 */
export const devicesAudit = /* @__PURE__ */ defineAudit<typeof devices>({
  register: {
    action: 'device.register',
    label: 'Registered a device',
    target: { kind: 'device', id: ({ body }) => deviceIdOf(body.serial) },
  },
  claim: notAudited('a person claims a device for themself with its code: no staff power is used'),
  listAll: notAudited('a read'),
  update: { action: 'device.update', label: 'Changed a device', target: deviceInPath },
  transfer: { action: 'device.transfer', label: "Transferred a device's ownership", target: deviceInPath },
  retire: { action: 'device.retire', label: 'Retired a device', target: deviceInPath },
  createCredential: {
    action: 'device.credential.create',
    label: 'Made an ingress credential for a device',
    target: deviceInPath,
  },
  rotateCredentials: {
    action: 'device.credential.rotate',
    label: "Replaced a device's ingress credentials",
    target: deviceInPath,
  },
  revokeCredential: {
    action: 'device.credential.revoke',
    label: 'Revoked an ingress credential of a device',
    target: deviceInPath,
  },
});
