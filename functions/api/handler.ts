import { api } from '../../shared/contracts/api';
import { apiAudit } from '../../shared/contracts/audit/api';
import { httpArea } from '../_shared/http/http-area';
import { createApiDeps, readApiEnv } from './deps';
import { apiHandlers } from './handlers/aws';

const env = readApiEnv();

export const handler = httpArea(api, apiHandlers, { audit: apiAudit, deps: () => createApiDeps(env) });
