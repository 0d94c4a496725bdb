/**
 * Log lines that operations count: the value of the `event` field a function writes, and that a CloudWatch metric
 * filter in the infrastructure matches (infra/stacks/area-stack.ts, docs/decisions/025-alarms-and-dashboard.md).
 * One spelling for both, so renaming a line cannot silently blind its alarm.
 */
export const LOG_EVENTS = {
  /** A Stripe webhook delivery whose signature did not verify (or whose signing secret could not be read). */
  stripeWebhookRefused: 'stripe.webhook.refused',
} as const;
