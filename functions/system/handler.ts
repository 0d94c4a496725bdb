import { system } from '../../shared/contracts/system';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createSystemDeps, SYSTEM_ENV } from './deps';
import { cacheHandlers } from './handlers/cache';
import { parameterHandlers } from './handlers/parameters';

const env = readEnv(SYSTEM_ENV);

export const handler = httpArea(
  system,
  { ...parameterHandlers, ...cacheHandlers },
  { deps: () => createSystemDeps(env) },
);
