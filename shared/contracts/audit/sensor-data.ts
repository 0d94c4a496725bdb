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
  // Calibrations and exclusions change what everyone reads of a device: a staff member's are recorded here, everyone's
  // in the records themselves (who and when, kept for good: docs/data-quality.md).
  addCalibration: {
    action: 'device.calibration.add',
    label: "Calibrated a device's measurement",
    target: { kind: 'device', id: ({ params }) => params.id },
  },
  addExclusion: {
    action: 'device.exclusion.add',
    label: "Excluded a range of a device's data",
    target: { kind: 'device', id: ({ params }) => params.id },
  },
  removeExclusion: {
    action: 'device.exclusion.remove',
    label: "Removed an exclusion of a device's data",
    target: { kind: 'device', id: ({ params }) => params.id },
  },
  addCampaignCalibration: {
    action: 'campaign.calibration.add',
    label: "Calibrated a campaign's devices",
    target: { kind: 'campaign', id: ({ params }) => params.id },
  },
  addCampaignExclusion: {
    action: 'campaign.exclusion.add',
    label: "Excluded a range of a campaign's devices",
    target: { kind: 'campaign', id: ({ params }) => params.id },
  },
  removeCampaignExclusion: {
    action: 'campaign.exclusion.remove',
    label: "Removed an exclusion of a campaign's devices",
    target: { kind: 'campaign', id: ({ params }) => params.id },
  },
});
