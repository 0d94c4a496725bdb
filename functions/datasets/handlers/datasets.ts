import type { datasets } from '../../../shared/contracts/datasets';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { DatasetsDeps } from '../deps';

export const datasetsHandlers: AreaHandlers<typeof datasets, DatasetsDeps> = {
  createDataset: ({ caller, body }, { datasets }) => datasets.create(caller, body),
  getDataset: ({ caller, params }, { datasets }) => datasets.get(caller, params.datasetId),
  listPublicDatasets: ({ query }, { datasets }) => datasets.listPublic(query),
  listMyDatasets: ({ caller, query }, { datasets }) => datasets.listMine(caller, query),
  listDatasetVersions: ({ caller, params }, { datasets }) => datasets.listVersions(caller, params.datasetId),
  listCampaignDatasets: ({ caller, params, query }, { datasets }) => datasets.listOfCampaign(caller, params.id, query),
};
