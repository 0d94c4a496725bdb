import * as z from 'zod';
import { EpochMillis } from './common';
import { Relation } from './shapes';

/**
 * Domain events: messages on the jobs queue for the notifications worker (docs/notifications.md). Each names its
 * change; a consumer re-reads current state before acting, since a change may have been undone after
 * its event was sent (see docs/relations.md).
 */
export const RelationChanged = z.object({
  kind: z.literal('relation.changed'),
  /** Unique per change: consumers de-duplicate on it (SQS may deliver twice). */
  eventId: z.string(),
  change: z.enum(['added', 'removed']),
  relation: Relation,
  actorId: z.string(),
  at: EpochMillis,
});
export type RelationChanged = z.infer<typeof RelationChanged>;

/** Spec §6: granting or removing these groups notifies all administrators. */
export const NOTIFIED_GROUPS = ['Administrators', 'Employees'] as const;

/** A person gained or lost a staff group (docs/users.md); the notifications worker tells every administrator. */
export const RoleChanged = z.object({
  kind: z.literal('role.changed'),
  /** Unique per change: consumers de-duplicate on it (SQS may deliver twice). */
  eventId: z.string(),
  change: z.enum(['added', 'removed']),
  userId: z.string(),
  group: z.enum(NOTIFIED_GROUPS),
  actorId: z.string(),
  at: EpochMillis,
});
export type RoleChanged = z.infer<typeof RoleChanged>;

/**
 * A public-API allowance crossed 70, 90 or 100 % of its month (docs/sensor-data.md, "Public API"): a device's, or,
 * without `deviceId`, the key owner's own allowance for other people's public devices. Sent once per threshold and
 * month; the notifications worker tells the key's owner. Also kept on the usage item, where the usage page shows it.
 */
export const ApiQuotaCrossed = z.object({
  kind: z.literal('api.quota'),
  /**
   * `{deviceId}#{YYYY-MM}#{threshold}`, or `public#{ownerId}#{YYYY-MM}#{threshold}` for the person's own allowance:
   * one per threshold and month, so consumers de-duplicate on it.
   */
  eventId: z.string(),
  /** The device whose allowance it is; absent for the person's own allowance for public devices. */
  deviceId: z.string().optional(),
  /** `YYYY-MM`, UTC. */
  month: z.string(),
  threshold: z.union([z.literal(70), z.literal(90), z.literal(100)]),
  used: z.number().int(),
  limit: z.number().int(),
  /** The key owner whose request crossed the threshold (the person to notify), named as every event's actor. */
  actorId: z.string(),
  at: EpochMillis,
});
export type ApiQuotaCrossed = z.infer<typeof ApiQuotaCrossed>;

/**
 * A billing moment the customer must hear of (docs/billing.md, "Webhooks"): a payment failed, or a trial ends in
 * three days. The notifications worker tells the person who bought the subscription.
 */
export const BillingNotice = z.object({
  kind: z.literal('billing.notice'),
  /** The Stripe event's id: one notice per event. */
  eventId: z.string(),
  notice: z.enum(['payment_failed', 'trial_will_end']),
  subscriptionId: z.string(),
  /** The buyer (the subscription's `userId`), the person to tell, named as every event's actor. */
  actorId: z.string(),
  productName: z.string(),
  deviceIds: z.array(z.string()),
  invoiceUrl: z.string().optional(),
  /** The trial's end (ms), for trial_will_end. */
  trialEnd: EpochMillis.optional(),
  at: EpochMillis,
});
export type BillingNotice = z.infer<typeof BillingNotice>;

/**
 * A webhook was turned off because its receiver answered 410 Gone or failed for 24 hours (docs/integrations.md): the
 * notifications worker tells its owner, by banner and e-mail, with a link to its delivery log.
 */
export const WebhookDisabled = z.object({
  kind: z.literal('webhook.disabled'),
  /** `{webhookId}#{disabledAt}`: one notice per time it was turned off. */
  eventId: z.string(),
  webhookId: z.string(),
  url: z.string(),
  reason: z.enum(['gone', 'failing']),
  targetKind: z.enum(['device', 'campaign', 'organization']),
  targetId: z.string(),
  /** When the failures began (failing). */
  failingSince: EpochMillis.optional(),
  /** The webhook's owner (who made it), the person to tell, named as every event's actor. */
  actorId: z.string(),
  at: EpochMillis,
});
export type WebhookDisabled = z.infer<typeof WebhookDisabled>;

/** A device of a halted rollout that failed or went silent, and why (docs/code-releases.md, "Halting"). */
export const RolloutFailure = z.object({
  deviceId: z.string(),
  state: z.enum(['failed', 'timed_out']),
  reason: z.string().optional(),
});
export type RolloutFailure = z.infer<typeof RolloutFailure>;

/** The failures a halt notification lists by name; the rest are counted. */
export const ROLLOUT_FAILURES_LISTED = 25;

/**
 * A firmware rollout was halted, by its abort criteria or by a person (docs/code-releases.md, "Halting"). One event
 * per audience: the release's staff (every failure), and each organization holding devices that were offered the
 * release (its managers hear of their own devices' failures only).
 */
export const RolloutHalted = z.object({
  kind: z.literal('rollout.halted'),
  /** `rollout-halted#{rolloutId}#{halted}#{audience}`: one notification per halt and audience. */
  eventId: z.string(),
  rolloutId: z.string(),
  releaseId: z.string(),
  productLine: z.string(),
  version: z.string(),
  stageName: z.string(),
  reason: z.string(),
  automatic: z.boolean(),
  audience: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('staff'), userIds: z.array(z.string()).min(1) }),
    z.object({ kind: z.literal('organization'), organizationId: z.string() }),
  ]),
  /** Failures in this audience's view, at most ROLLOUT_FAILURES_LISTED; `failureCount` is all of them. */
  failures: z.array(RolloutFailure).max(ROLLOUT_FAILURES_LISTED),
  failureCount: z.number().int().nonnegative(),
  /** Who halted it; for an automatic halt, the person who started the rollout (every event names an actor). */
  actorId: z.string(),
  at: EpochMillis,
});
export type RolloutHalted = z.infer<typeof RolloutHalted>;
/**
 * An alert fired, resolved, or still fires unacknowledged (a reminder) (docs/alerts.md). One per change: the
 * notifications worker makes one notification of it, topic `alerts`, for the audience the alerts area resolved when
 * it sent it (the rule's recipients who still have access to the device, and its roles as relation selectors).
 */
export const AlertChanged = z.object({
  kind: z.literal('alert.changed'),
  /** `{alertId}#fired`, `{alertId}#resolved`, `{alertId}#reminder#{n}`: consumers de-duplicate on it. */
  eventId: z.string(),
  change: z.enum(['fired', 'resolved', 'reminder']),
  alertId: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  deviceId: z.string(),
  deviceName: z.string().optional(),
  condition: z.enum(['threshold', 'silence', 'subscription']),
  measurement: z.string().optional(),
  unit: z.string().optional(),
  direction: z.enum(['above', 'below']).optional(),
  limit: z.number().optional(),
  clearLevel: z.number().optional(),
  /** Threshold: the value that fired it, or (resolved) the value that cleared it. */
  value: z.number().optional(),
  afterSeconds: z.number().optional(),
  daysBefore: z.number().optional(),
  /** Subscription: when the tier lapses or the trial ends. */
  endsAt: EpochMillis.optional(),
  /** `trial` or `lapse` (subscription). */
  reason: z.string().optional(),
  /** When it fired (or resolved): the device page's link opens the chart at this time. */
  at: EpochMillis,
  firedAt: EpochMillis,
  audience: z.array(z.string()).min(1).max(20),
  /** The rule's creator, named as every event's actor (the notification's initiator). */
  actorId: z.string(),
});
export type AlertChanged = z.infer<typeof AlertChanged>;

export const DomainEvent = z.discriminatedUnion('kind', [
  RelationChanged,
  RoleChanged,
  ApiQuotaCrossed,
  BillingNotice,
  WebhookDisabled,
  RolloutHalted,
  AlertChanged,
]);
export type DomainEvent = z.infer<typeof DomainEvent>;

/** Spec §6: these relation changes notify the affected users or organization managers. */
export const NOTIFIED_RELATION_TYPES = ['device-owner', 'device-administrator', 'organization-device'] as const;

/** People per delivery chunk: one chunk is one jobs-queue message and one short piece of work. */
export const DELIVERY_CHUNK_SIZE = 100;

/**
 * The notifications worker's own jobs (docs/notifications.md, "Worker"): send a notification, resolve one page of
 * one audience selector, deliver to one chunk of people. A large audience is fanned out through the queue, page by
 * page and chunk by chunk, so no invocation runs long and a failure retries only its own piece.
 */
export const NotificationJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('notification.send'), notificationId: z.string() }),
  z.object({
    kind: z.literal('notification.resolve'),
    notificationId: z.string(),
    /** Index into the notification's audience. */
    selector: z.number().int().nonnegative(),
    page: z.number().int().nonnegative(),
    cursor: z.string().optional(),
  }),
  z.object({
    kind: z.literal('notification.deliver'),
    notificationId: z.string(),
    /** `{selector}.{page}.{index}`: the notification records it when done. */
    chunk: z.string(),
    recipients: z.array(z.string()).min(1).max(DELIVERY_CHUNK_SIZE),
  }),
]);
export type NotificationJob = z.infer<typeof NotificationJob>;

/** Everything on the jobs queue, which the notifications worker consumes. */
export const JobsMessage = z.discriminatedUnion('kind', [
  RelationChanged,
  RoleChanged,
  ApiQuotaCrossed,
  BillingNotice,
  WebhookDisabled,
  RolloutHalted,
  AlertChanged,
  ...NotificationJob.options,
]);
export type JobsMessage = z.infer<typeof JobsMessage>;
