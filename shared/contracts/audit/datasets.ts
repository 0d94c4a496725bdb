import type { datasets } from '../datasets';
import { defineAudit, notAudited } from '../define-audit';

/**
 * Datasets (docs/audit.md): a staff member building one may reach devices through staff rights alone, so that
 * extract is recorded; reads are not.
 */
export const datasetsAudit = /* @__PURE__ */ defineAudit<typeof datasets>({
  createDataset: {
    action: 'dataset.create',
    label: 'Built a dataset',
    target: { kind: 'dataset', id: (_request, response) => response?.id },
  },
  getDataset: notAudited('a read'),
  listPublicDatasets: notAudited('a read'),
  listMyDatasets: notAudited('a read'),
  listDatasetVersions: notAudited('a read'),
  listCampaignDatasets: notAudited('a read'),
});
