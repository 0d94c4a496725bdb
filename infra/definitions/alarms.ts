import type { AreaName } from '../../shared/contracts/areas';
import type { AppMetric } from '../../shared/operations/metrics';

/**
 * Every alarm threshold of the operations stack, in one place (docs/decisions/025-alarms-and-dashboard.md). Each
 * number says why it is what it is; change one here and every environment's alarm follows.
 *
 * `periodMinutes` is the length of one evaluated datapoint, `datapoints` how many of the last `evaluationPeriods`
 * must breach before the alarm fires: N of M filters a lone spike that a person could not act on anyway.
 */
export interface AlarmThreshold {
  threshold: number;
  periodMinutes: number;
  evaluationPeriods: number;
  /** @default evaluationPeriods */
  datapoints?: number;
}

export const ALARM_THRESHOLDS = {
  /**
   * Share of an API's requests answered 5xx (the average of API Gateway's 0/1 `5XXError`). The handlers map every
   * expected failure to a 4xx, so a 5xx is a bug or an outage; 5 % in two of three 5-minute windows is a real fault
   * for users, while one unlucky request at night (one in a handful) is not paged alone.
   */
  api5xxRate: { threshold: 0.05, periodMinutes: 5, evaluationPeriods: 3, datapoints: 2 },
  /**
   * p99 latency of an API in milliseconds. A route does one or a few DynamoDB calls and answers in well under a
   * second warm; a cold start adds up to ~1 s. Above 3 s for 15 minutes users wait visibly, and the function's 10 s
   * timeout is near.
   */
  apiP99LatencyMs: { threshold: 3000, periodMinutes: 5, evaluationPeriods: 3 },
  /**
   * Invocations a function ended in error (uncaught, timeout, out of memory). The chains catch and map every
   * expected error, so one is already a bug: the alarm fires on the first.
   */
  functionErrors: { threshold: 1, periodMinutes: 5, evaluationPeriods: 1 },
  /**
   * Throttled invocations. No function reserves concurrency, so a throttle means the account's concurrency is
   * exhausted: requests are being refused now.
   */
  functionThrottles: { threshold: 1, periodMinutes: 5, evaluationPeriods: 1 },
  /** Messages in a dead-letter queue: work that failed every retry and waits for a person. Any one is worth a look. */
  deadLetterDepth: { threshold: 1, periodMinutes: 5, evaluationPeriods: 1 },
  /**
   * Age of the oldest message in a dead-letter queue, in seconds: 7 days, half of the 14 days SQS keeps it. An
   * operator who has not looked by then has a week left before the failed work is gone for good.
   */
  deadLetterAgeSeconds: { threshold: 7 * 24 * 3600, periodMinutes: 60, evaluationPeriods: 1 },
  /**
   * Throttled reads and writes of a table (on-demand: a hot partition or the table's on-demand ceiling). The SDK
   * retries, so a few are absorbed; sustained over two 5-minute windows, requests fail or slow down.
   */
  tableThrottles: { threshold: 1, periodMinutes: 5, evaluationPeriods: 2 },
  /**
   * Failed actions of an IoT rule (IoT Core could not invoke the function: throttled, permission) and messages the
   * rules engine throttled. Each is a device reading lost before our code saw it.
   */
  iotRuleErrors: { threshold: 1, periodMinutes: 5, evaluationPeriods: 1 },
  /**
   * SES's account bounce rate (a fraction). SES reviews an account above 5 % and may pause sending above 10 %; the
   * alarm at 4 % leaves time to find the bad addresses before the review.
   */
  mailBounceRate: { threshold: 0.04, periodMinutes: 60, evaluationPeriods: 1 },
  /** SES's account complaint rate: the review starts at 0.1 %, the alarm at 0.08 %. */
  mailComplaintRate: { threshold: 0.0008, periodMinutes: 60, evaluationPeriods: 1 },
  /**
   * Stripe webhook deliveries refused for their signature in 15 minutes. The route is public, so a stray probe may
   * be refused now and then; three in a quarter hour is Stripe retrying after the signing secret stopped matching
   * (rolled in Stripe's dashboard and not put here), and every billing event is being lost until it is fixed.
   */
  stripeWebhookRefusals: { threshold: 3, periodMinutes: 15, evaluationPeriods: 1 },
} as const satisfies Record<string, AlarmThreshold>;

/**
 * How old the oldest message of a work queue may grow: every receive may hold it for the visibility timeout, and
 * after `maxReceiveCount` receives it moves to the dead-letter queue. Older than that (in two 5-minute windows),
 * nobody is receiving at all: the worker fails to start, or its event source is off.
 */
export const workQueueAge = (queue: { visibilityTimeoutSeconds: number; maxReceiveCount: number }): AlarmThreshold => ({
  threshold: queue.visibilityTimeoutSeconds * queue.maxReceiveCount,
  periodMinutes: 5,
  evaluationPeriods: 2,
});

/** The namespace of the metrics the platform derives from its own logs (metric filters), per environment. */
export const metricNamespace = (env: string): string => `device-data/${env}`;

/** Metrics the platform derives from its own logs, by the log line each counts. */
export const LOG_METRICS = {
  /** The customer area's log line when a Stripe webhook's signature is refused (functions/customer/domain/webhooks.ts). */
  stripeWebhookRefused: 'StripeWebhookSignatureRefused',
  /** An IoT rule's error action wrote a failed action to the rule's error log group. */
  iotRuleActionFailed: 'IotRuleActionFailures',
} as const;

/**
 * Where each of the platform's own metrics (EMF, shared/operations/metrics.ts) comes from: the service area whose
 * functions write it, which Powertools adds as the `service` dimension.
 */
export const APP_METRIC_SOURCES: Record<AppMetric, AreaName> = {
  ReadingsAccepted: 'data-ingress',
  ReadingsRefused: 'data-ingress',
  RollupLagSeconds: 'sensor-data',
  NotificationsSent: 'notifications',
  NotificationsFailed: 'notifications',
  ApiQuotaCrossings: 'sensor-data',
  CheckoutsStarted: 'api',
  StripeWebhookFailures: 'customer',
  SignUpsRefused: 'users',
};
