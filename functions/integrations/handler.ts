import { integrationsAudit } from '../../shared/contracts/audit/integrations';
import { integrations } from '../../shared/contracts/integrations';
import { httpArea } from '../_shared/http/http-area';
import { createIntegrationsDeps, readIntegrationsEnv } from './deps';
import { webhookHandlers } from './handlers/webhooks';

const env = readIntegrationsEnv();

export const handler = httpArea(integrations, webhookHandlers, {
  audit: integrationsAudit,
  deps: () => createIntegrationsDeps(env),
});
