import { customerAudit } from '../../shared/contracts/audit/customer';
import { customer } from '../../shared/contracts/customer';
import { httpArea } from '../_shared/http/http-area';
import { createCustomerDeps, readCustomerEnv } from './deps';
import { webhookHandlers } from './handlers/webhooks';

const env = readCustomerEnv();

export const handler = httpArea(customer, webhookHandlers, {
  audit: customerAudit,
  deps: () => createCustomerDeps(env),
});
