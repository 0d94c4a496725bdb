import { TIER_FEATURES_PARAMETER } from '../../sensor-data/tier-features';
import { defineAudit, notAudited } from '../define-audit';
import type { system } from '../system';

/** Staff actions on the platform's settings (docs/audit.md). */
export const systemAudit = /* @__PURE__ */ defineAudit<typeof system>({
  createParameter: {
    action: 'parameter.create',
    label: 'Created a system parameter',
    target: { kind: 'parameter', id: ({ body }) => body.id },
  },
  updateParameter: {
    action: 'parameter.update',
    label: 'Changed a system parameter',
    target: { kind: 'parameter', id: ({ params }) => params.id },
  },
  deleteParameter: {
    action: 'parameter.delete',
    label: 'Deleted a system parameter',
    target: { kind: 'parameter', id: ({ params }) => params.id },
  },
  putTierFeatures: {
    action: 'tier-features.update',
    label: 'Changed the tier features',
    target: { kind: 'parameter', id: () => TIER_FEATURES_PARAMETER },
  },
  // --- Cache files and the item look-up (docs/system.md) ---
  listCacheFiles: notAudited('a read'),
  loadCacheFiles: {
    action: 'cache-files.load',
    label: "Rebuilt a device's cache files",
    target: { kind: 'device', id: ({ body }) => body.options.deviceId },
  },
  deleteItemsFromCache: {
    action: 'cache-files.delete',
    label: 'Evicted cache files',
    target: { kind: 'cache', id: ({ body }) => body.pathObjectsArray.map((p) => p.deviceId).join(',') },
  },
  listLookupTables: notAudited('a read'),
  batchGetDdbItems: {
    action: 'items.read',
    label: 'Looked up stored items by key',
    target: { kind: 'tables', id: ({ body }) => Object.keys(body.params.RequestItems).join(',') },
  },
  // --- The audit log ---
  searchAudit: notAudited('reads the audit log'),
  listAuditActions: notAudited('a read'),
});
