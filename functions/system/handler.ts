import { systemAudit } from '../../shared/contracts/audit/system';
import { system } from '../../shared/contracts/system';
import { readEnv } from '../_shared/env';
import { type AreaHandlers, httpArea } from '../_shared/http/http-area';
import { createSystemDeps, SYSTEM_ENV, type SystemDeps } from './deps';
import { auditHandlers } from './handlers/audit';
import { cacheHandlers } from './handlers/cache';
import { parameterHandlers, parameterReadAhead } from './handlers/parameters';

const env = readEnv(SYSTEM_ENV);

const handlers: AreaHandlers<typeof system, SystemDeps> = { ...parameterHandlers, ...cacheHandlers, ...auditHandlers };

export const handler = httpArea(system, handlers, {
  audit: systemAudit,
  deps: () => createSystemDeps(env),
  readAhead: parameterReadAhead,
});
