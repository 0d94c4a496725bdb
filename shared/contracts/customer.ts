import * as z from 'zod';
import { defineArea, defineRoute, guest } from './define-route';

/** The header Stripe signs its webhook deliveries with. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** Billing's own routes (docs/billing.md); the web app's subscription endpoints are under `/api/subscriptions`. */
export const customer = defineArea('customer', {
  stripeWebhook: defineRoute({
    method: 'POST',
    path: '/stripe-webhook',
    // No person's token: Stripe proves itself by signing the exact body (Stripe-Signature, 300 s tolerance).
    access: guest,
    summary:
      "Stripe's events: signature checked on the raw body, each event worked once, the device's subscription re-read from Stripe and recorded.",
    response: z.object({ received: z.literal(true), duplicate: z.boolean().optional() }),
  }),
});
