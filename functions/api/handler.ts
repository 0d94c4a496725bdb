import { api } from '../../shared/contracts/api';
import { apiAudit } from '../../shared/contracts/audit/api';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { API_ENV, createApiDeps } from './deps';
import { apiHandlers } from './handlers/aws';

const env = readEnv(API_ENV);

export const handler = httpArea(api, apiHandlers, { audit: apiAudit, deps: () => createApiDeps(env) });
