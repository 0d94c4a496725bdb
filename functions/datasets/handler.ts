import { datasetsAudit } from '../../shared/contracts/audit/datasets';
import { datasets } from '../../shared/contracts/datasets';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createDatasetsDeps, DATASETS_ENV } from './deps';
import { datasetsHandlers } from './handlers/datasets';

const env = readEnv(DATASETS_ENV);

export const handler = httpArea(datasets, datasetsHandlers, {
  audit: datasetsAudit,
  deps: () => createDatasetsDeps(env),
});
