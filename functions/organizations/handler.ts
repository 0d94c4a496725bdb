import { organizationsAudit } from '../../shared/contracts/audit/organizations';
import { organizations } from '../../shared/contracts/organizations';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createOrganizationsDeps, ORGANIZATIONS_ENV } from './deps';
import { organizationHandlers } from './handlers/organizations';

const env = readEnv(ORGANIZATIONS_ENV);

export const handler = httpArea(organizations, organizationHandlers, {
  audit: organizationsAudit,
  deps: () => createOrganizationsDeps(env),
});
