import { type customer, STRIPE_SIGNATURE_HEADER } from '../../../shared/contracts/customer';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { CustomerDeps } from '../deps';

export const webhookHandlers: AreaHandlers<typeof customer, CustomerDeps> = {
  stripeWebhook: ({ rawBody, header }, { webhooks }) => webhooks.receive(rawBody, header(STRIPE_SIGNATURE_HEADER)),
};
