import * as z from 'zod';
import { OptionalSafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, signedIn } from './define-route';
import { ObjectId } from './shapes';
import {
  type DeliveredEventType,
  WEBHOOK_EVENT_INFO,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_VERSION,
  webhookEvent,
} from './webhook-events';

export type { DeliveredEventType };
export { WEBHOOK_EVENT_INFO, WEBHOOK_EVENT_TYPES };

/** `wh_` and 20 lower-case letters or digits. */
export const WebhookId = z.string().regex(/^wh_[0-9a-z]{20}$/, 'Not a webhook id');
/** `msg_{webhook}_{sequence}`: a delivery names its webhook, so it is found without an index. */
export const DeliveryId = z.string().regex(/^msg_[0-9a-z]{20}_[0-9a-z]{15}$/, 'Not a delivery id');

export const TARGET_KINDS = ['device', 'campaign', 'organization'] as const;
export const TargetKind = z.enum(TARGET_KINDS, {
  error: () => `Target kind must be one of: ${TARGET_KINDS.join(', ')}`,
});
export type TargetKind = z.infer<typeof TargetKind>;

/** Whose devices' events a webhook receives: one device, a campaign's devices or an organization's devices. */
export const WebhookTarget = z.object({ kind: TargetKind, id: ObjectId });
export type WebhookTarget = z.infer<typeof WebhookTarget>;

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, {
  error: () => `Each event must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});

const Events = z
  .array(WebhookEventType, { error: 'events must be a list of event types' })
  .min(1, 'Choose at least one event')
  .refine((events) => new Set(events).size === events.length, 'Each event may be named once');

/** The longest URL kept; the address rules (https, no private addresses) are the use case's (they differ per home). */
export const MAX_WEBHOOK_URL = 2048;
const Url = z
  .string({ error: 'url must be a text' })
  .trim()
  .min(1, 'url cannot be empty')
  .max(MAX_WEBHOOK_URL, `url is at most ${MAX_WEBHOOK_URL} characters`);

/** Why a webhook is off: its owner turned it off, the receiver answered 410 Gone, or it failed for 24 hours. */
export const DisabledReason = z.enum(['owner', 'gone', 'failing']);
export type DisabledReason = z.infer<typeof DisabledReason>;

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType),
  target: WebhookTarget,
  description: z.string(),
  status: z.enum(['enabled', 'disabled']),
  disabledReason: DisabledReason.optional(),
  disabledAt: EpochMillis.optional(),
  /** When the current run of failed attempts began; absent while the receiver answers. */
  failingSince: EpochMillis.optional(),
  /** After a rotation the previous secret also signs until then. */
  previousSecretUntil: EpochMillis.optional(),
  /** Events waiting to be sent (readings batches count one each), up to 1,000. */
  waiting: z.number().int().optional(),
  created: EpochMillis,
  createdBy: z.string(),
  updated: EpochMillis,
});
export type Webhook = z.infer<typeof Webhook>;

/** A new webhook, with its signing secret: the only answer that holds it. */
export const CreatedWebhook = Webhook.extend({
  /** `whsec_…`: shown once. Verify each request with it (the Standard Webhooks libraries take it as is). */
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const RotatedSecret = z.object({
  secret: z.string(),
  /** The previous secret keeps signing (a second signature in `webhook-signature`) until then. */
  previousSecretUntil: EpochMillis,
});
export type RotatedSecret = z.infer<typeof RotatedSecret>;

export const DeliveryStatus = z.enum(['pending', 'retrying', 'delivered', 'waiting', 'failed']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** One try of a delivery: when, what came back and how long it took (at most 1 KB of the answer is kept). */
export const DeliveryAttempt = z.object({
  at: EpochMillis,
  /** The receiver's HTTP status; absent when no answer came (refused, timed out, unreachable). */
  statusCode: z.number().int().optional(),
  durationMs: z.number().int().nonnegative(),
  /** The first 1 KB of the answer's body. */
  response: z.string().optional(),
  /** Why no answer came, or why the address was refused. */
  error: z.string().optional(),
  /** A replay asked for by a person. */
  manual: z.boolean().optional(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const Delivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  /** The event it carries. */
  eventId: z.string(),
  eventType: z.string(),
  status: DeliveryStatus,
  attemptCount: z.number().int().nonnegative(),
  /** The latest attempts, newest last (at most 30). */
  attempts: z.array(DeliveryAttempt),
  /** Stored batches it carries (readings.received). */
  batches: z.number().int().optional(),
  bytes: z.number().int(),
  created: EpochMillis,
  nextAttemptAt: EpochMillis.optional(),
  deliveredAt: EpochMillis.optional(),
  /** Kept until then (30 days after it was made). */
  expiresAt: EpochMillis,
});
export type Delivery = z.infer<typeof Delivery>;

export const TestSent = z.object({
  /** The test event's id; its delivery shows in the log within seconds. */
  eventId: z.string(),
});

export const NewWebhook = z
  .object({
    url: Url,
    events: Events,
    target: WebhookTarget,
    description: OptionalSafeText('Description', 200).default(''),
  })
  .strict();

const WebhookChanges = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: OptionalSafeText('Description', 200).optional(),
    /** false turns the webhook off (events are no longer collected); true turns it on, and what waited is sent. */
    enabled: z.boolean().optional(),
  })
  .strict();

const ById = z.object({ id: WebhookId });

/** The events' payloads, for OpenAPI's `webhooks`: what a receiver is sent, per type. */
export const INTEGRATIONS_EVENTS = Object.fromEntries(
  (['ping', ...WEBHOOK_EVENT_TYPES] as const).map((type) => [
    type,
    { summary: WEBHOOK_EVENT_INFO[type].summary, schema: webhookEvent(type) },
  ]),
) as unknown as Record<DeliveredEventType, { summary: string; schema: z.ZodType }>;

export { WEBHOOK_EVENT_VERSION };

export const integrations = defineArea(
  'integrations',
  {
    createWebhook: defineRoute({
      method: 'POST',
      path: '/integrations/webhooks',
      access: signedIn,
      summary:
        "Add a webhook for a device, a campaign's or an organization's devices; needs manage on the target. Answers its signing secret, once.",
      body: NewWebhook,
      response: CreatedWebhook,
      status: 201,
    }),
    listWebhooks: defineRoute({
      method: 'GET',
      path: '/integrations/webhooks',
      access: signedIn,
      summary: "A target's webhooks, newest first, paged; needs manage on the target.",
      query: PageQuery.extend({ targetKind: TargetKind, targetId: ObjectId }),
      response: page(Webhook),
    }),
    getWebhook: defineRoute({
      method: 'GET',
      path: '/integrations/webhooks/{id}',
      access: signedIn,
      summary: 'One webhook (never its secret); needs manage on its target.',
      params: ById,
      response: Webhook,
    }),
    updateWebhook: defineRoute({
      method: 'PUT',
      path: '/integrations/webhooks/{id}',
      access: signedIn,
      summary: 'Change the URL, events or description, or turn the webhook off or on (on sends what waited).',
      params: ById,
      body: WebhookChanges,
      response: Webhook,
    }),
    deleteWebhook: defineRoute({
      method: 'DELETE',
      path: '/integrations/webhooks/{id}',
      access: signedIn,
      summary: 'Delete a webhook and what waited for it; its delivery log expires with its records (30 days).',
      params: ById,
      response: z.void(),
    }),
    rotateSecret: defineRoute({
      method: 'POST',
      path: '/integrations/webhooks/{id}/rotate-secret',
      access: signedIn,
      summary: 'A new signing secret, answered once; the previous one also signs for 24 hours.',
      params: ById,
      response: RotatedSecret,
    }),
    testWebhook: defineRoute({
      method: 'POST',
      path: '/integrations/webhooks/{id}/test',
      access: signedIn,
      summary: 'Send a `ping` event now (also to a webhook that is off or waiting to retry); it shows in the log.',
      params: ById,
      response: TestSent,
      status: 202,
    }),
    listDeliveries: defineRoute({
      method: 'GET',
      path: '/integrations/webhooks/{id}/deliveries',
      access: signedIn,
      summary: "A webhook's deliveries, newest first, with each attempt's time, status, duration and answer.",
      params: ById,
      query: PageQuery,
      response: page(Delivery),
    }),
    replayDelivery: defineRoute({
      method: 'POST',
      path: '/integrations/deliveries/{id}/replay',
      access: signedIn,
      summary: 'Send a delivery again now, with the same webhook-id; the webhook must be on.',
      params: z.object({ id: DeliveryId }),
      response: Delivery,
      status: 202,
    }),
  },
  { webhooks: INTEGRATIONS_EVENTS },
);

/** The test event a receiver gets from "Send a test". */
export const PING_MESSAGE = 'A test from the device-data platform: answer 2xx to pass.';
