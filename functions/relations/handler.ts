import { relationsAudit } from '../../shared/contracts/audit/relations';
import { relations } from '../../shared/contracts/relations';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createRelationsDeps, RELATIONS_ENV } from './deps';
import { relationHandlers } from './handlers/relations';

const env = readEnv(RELATIONS_ENV);

export const handler = httpArea(relations, relationHandlers, {
  audit: relationsAudit,
  deps: () => createRelationsDeps(env),
});
