import { defineAudit, notAudited } from './define-audit';
import { defineArea } from './define-route';
import { apiKeysRoutes } from './sensor-data-api-keys';
import { campaignRoutes } from './sensor-data-campaigns';
import { exportsRoutes } from './sensor-data-exports';
import { liveRoutes } from './sensor-data-live';
import { readingsRoutes } from './sensor-data-readings';

/**
 * Sensor data (docs/sensor-data.md): reads and charts, campaign comparisons, downloads, the live view and the
 * public API, each gated by the device's access and its tier. One area, one Lambda; its routes are defined in one file per part.
 */
export const sensorData = defineArea('sensor-data', {
  ...readingsRoutes,
  ...exportsRoutes,
  ...liveRoutes,
  ...apiKeysRoutes,
  ...campaignRoutes,
});

/** Everything here is a person's own (their keys, exports, live view); staff revoking another's key is recorded. */
export const sensorDataAudit = /* @__PURE__ */ defineAudit(sensorData, {
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
