import { customerAudit } from '../../shared/contracts/audit/customer';
import { customer } from '../../shared/contracts/customer';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { CUSTOMER_ENV, createCustomerDeps } from './deps';
import { webhookHandlers } from './handlers/webhooks';

const env = readEnv(CUSTOMER_ENV);

export const handler = httpArea(customer, webhookHandlers, {
  audit: customerAudit,
  deps: () => createCustomerDeps(env),
});
