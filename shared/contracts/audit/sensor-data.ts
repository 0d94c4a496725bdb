import { defineAudit, notAudited } from '../define-audit';
import type { sensorData } from '../sensor-data';

/** Everything here is a person's own (their keys, exports, live view); staff revoking another's key is recorded. */
export const sensorDataAudit = /* @__PURE__ */ defineAudit<typeof sensorData>({
  createExport: notAudited('a download of data the caller may read'),
  watchLive: notAudited("the caller's own live view"),
  unwatchLive: notAudited("the caller's own live view"),
  attachTargetPolicy: notAudited("the caller's own realtime identity"),
  detachTargetPolicy: notAudited("the caller's own realtime identity"),
  createApiKey: notAudited("the caller's own key, acting with the caller's relations only"),
  revokeApiKey: {
    action: 'api-key.revoke',
    label: 'Revoked an API key',
    target: { kind: 'api-key', id: ({ params }) => params.keyId },
  },
});
