/**
 * The Stripe keys an environment may take (`stripeMode` in infra/definitions/environments.ts), and the variable that
 * tells its billing functions which: functions/_shared/billing/stripe-client.ts refuses a key of the other mode.
 */
export const STRIPE_MODES = ['test', 'live'] as const;
export type StripeMode = (typeof STRIPE_MODES)[number];
export const STRIPE_MODE_ENV = 'STRIPE_MODE';
