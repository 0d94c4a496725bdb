import { createHmac, randomUUID } from 'node:crypto';
import { LOCAL_STRIPE_WEBHOOK_SECRET } from '../../infra/local/emulators/stripe';
import type { FixtureRequest, RouteFixture } from './authz-fixture-types';

/** The authorization matrix's fixtures for the customer area (merged in authz-fixtures.ts). */
export const CUSTOMER_FIXTURES: Record<string, RouteFixture> = {
  // Anyone may post to the webhook; what lets a delivery through is Stripe's signature over the body, made here
  // for each request (a fresh event each time, about no subscription).
  stripeWebhook: {
    prepare: async () => ({
      body: {
        id: `evt_authz_${randomUUID()}`,
        object: 'event',
        type: 'customer.created',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: 'cus_authz', object: 'customer' } },
      },
    }),
    headersFor: (request: FixtureRequest) => {
      const t = Math.floor(Date.now() / 1000);
      const mac = createHmac('sha256', LOCAL_STRIPE_WEBHOOK_SECRET)
        .update(`${t}.${JSON.stringify(request.body)}`)
        .digest('hex');
      return { 'stripe-signature': `t=${t},v1=${mac}` };
    },
  },
};
