/**
 * The platform's own metrics (EMF, written by each function through Powertools): one name each, for the code that
 * counts and the dashboard that shows it (docs/decisions/030-powertools-telemetry.md).
 */
export const APP_METRICS = {
  /** Readings stored, from HTTPS and MQTT alike. */
  readingsAccepted: 'ReadingsAccepted',
  /** Readings refused one by one (out of range, too old, …): a device sending what it should not. */
  readingsRefused: 'ReadingsRefused',
  /** Seconds from a roll-up being queued (new readings stored) to its charts being written. */
  rollupLag: 'RollupLagSeconds',
  /** E-mails a notification job sent, and the ones it could not send. */
  notificationsSent: 'NotificationsSent',
  notificationsFailed: 'NotificationsFailed',
  /** API calls refused because a key's plan quota for the period was used up. */
  quotaCrossings: 'ApiQuotaCrossings',
  /** Stripe checkout sessions opened for a cart. */
  checkouts: 'CheckoutsStarted',
  /** Stripe webhook deliveries refused (signature) or failed while being worked. */
  webhookFailures: 'StripeWebhookFailures',
  /**
   * Sign-ups the PreSignUp trigger refused on purpose (the linking rule, decision 037). Cognito shows a trigger's
   * message only when the Lambda fails, so each is also one of the function's Errors: its alarms subtract these.
   */
  signUpsRefused: 'SignUpsRefused',
} as const;

export type AppMetric = (typeof APP_METRICS)[keyof typeof APP_METRICS];
