import * as z from 'zod';
import { EpochMillis } from './common';

/**
 * What a webhook receives (docs/integrations.md): one event per request, as JSON, signed the Standard Webhooks way.
 * Every event has an `id` (the same for every webhook it reaches and every retry), a `type`, a `time` (ISO 8601, when
 * it happened) and a `version` of its `data`'s shape; the message that carries it has its own id, `webhook-id`. Times
 * inside `data` are milliseconds since the epoch, as everywhere in the API.
 */

/** The events a webhook may subscribe to; `ping` is sent only by `POST /integrations/webhooks/{id}/test`. */
export const WEBHOOK_EVENT_TYPES = [
  'readings.received',
  'device.online',
  'device.offline',
  'alert.fired',
  'alert.resolved',
  'subscription.changed',
  'export.ready',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every type a delivery can carry. */
export type DeliveredEventType = WebhookEventType | 'ping';

/** Bump when a type's `data` changes shape in a way a receiver could notice. */
export const WEBHOOK_EVENT_VERSION = 1;

/** One reading as the readings API shows it. */
const WebhookReading = z.object({ timestamp: EpochMillis, values: z.record(z.string(), z.number()) });

/** One stored batch of one device (a batch over 100 KB arrives in parts, each a batch of its own, in order). */
export const ReadingsBatch = z.object({
  deviceId: z.string(),
  /** Unique per batch (and part): a receiver that stores by it stores each batch once. */
  batchId: z.string(),
  /** When the platform stored it. */
  receivedAt: EpochMillis,
  readings: z.array(WebhookReading),
});
export type ReadingsBatch = z.infer<typeof ReadingsBatch>;

export const ReadingsReceivedData = z.object({
  /** 1 to 100 stored batches, of one device or several, oldest first; at most 1 MB in all. */
  batches: z.array(ReadingsBatch),
});

export const PresenceData = z.object({
  deviceId: z.string(),
  /** The newest reading the device sent. */
  lastSeen: EpochMillis,
  /** A device is online while its last reading is at most this old. */
  onlineWindowMs: z.number().int(),
});

export const AlertData = z.object({
  alertId: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  deviceId: z.string(),
  condition: z.enum(['threshold', 'silence', 'subscription']),
  measurement: z.string().optional(),
  /** The value that fired it (or, resolved, that cleared it). */
  value: z.number().optional(),
  limit: z.number().optional(),
  firedAt: EpochMillis,
  resolvedAt: EpochMillis.optional(),
});
export type AlertData = z.infer<typeof AlertData>;

export const SubscriptionData = z.object({
  deviceId: z.string(),
  subscriptionId: z.string(),
  /** Stripe's status: `active`, `trialing`, `past_due`, `canceled`, … */
  status: z.string(),
  tier: z.string(),
  productName: z.string(),
  currentPeriodEnd: EpochMillis.optional(),
  cancelAtPeriodEnd: z.boolean(),
});
export type SubscriptionData = z.infer<typeof SubscriptionData>;

export const ExportData = z.object({
  exportId: z.string(),
  deviceId: z.string(),
  format: z.string(),
  from: EpochMillis,
  to: EpochMillis,
  rows: z.number().int(),
  /** Until when it may be downloaded. */
  expiresAt: EpochMillis,
  /** The sensor-data API's route that answers it with a short-lived download link (with its owner's session). */
  links: z.object({ export: z.string() }),
});
export type ExportData = z.infer<typeof ExportData>;

export const PingData = z.object({ webhookId: z.string(), message: z.string() });

/** The `data` of each type. */
export const WEBHOOK_EVENT_DATA = {
  'readings.received': ReadingsReceivedData,
  'device.online': PresenceData,
  'device.offline': PresenceData,
  'alert.fired': AlertData,
  'alert.resolved': AlertData,
  'subscription.changed': SubscriptionData,
  'export.ready': ExportData,
  ping: PingData,
} as const satisfies Record<DeliveredEventType, z.ZodType>;

export type WebhookEventData<T extends DeliveredEventType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** What each type means, for the OpenAPI document and the add form. */
export const WEBHOOK_EVENT_INFO: Record<DeliveredEventType, { label: string; summary: string }> = {
  'readings.received': {
    label: 'Readings received',
    summary:
      'Readings were stored: up to 100 stored batches per request (1 MB at most), so a slow receiver gets fewer, larger requests.',
  },
  'device.online': { label: 'Device online', summary: 'A device sent a reading after being offline.' },
  'device.offline': {
    label: 'Device offline',
    summary: 'A device has sent nothing for longer than its online window (10 minutes).',
  },
  'alert.fired': { label: 'Alert fired', summary: 'An alert rule fired on a device.' },
  'alert.resolved': { label: 'Alert resolved', summary: 'A fired alert cleared.' },
  'subscription.changed': {
    label: 'Subscription changed',
    summary: "A device's subscription changed: bought, renewed, upgraded, scheduled to end, cancelled.",
  },
  'export.ready': { label: 'Export ready', summary: "A device's data export finished and may be downloaded." },
  ping: { label: 'Test', summary: 'Sent by "Send a test": the receiver answers 2xx to pass.' },
};

/** The envelope of one type's event. */
export const webhookEvent = <T extends DeliveredEventType>(type: T) =>
  z.object({
    id: z.string(),
    type: z.literal(type),
    /** ISO 8601, UTC: when it happened. */
    time: z.string(),
    version: z.literal(WEBHOOK_EVENT_VERSION),
    data: WEBHOOK_EVENT_DATA[type],
  });

/** An event as a receiver parses it, whatever its type. */
export interface WebhookEventBody<T extends DeliveredEventType = DeliveredEventType> {
  id: string;
  type: T;
  time: string;
  version: typeof WEBHOOK_EVENT_VERSION;
  data: WebhookEventData<T>;
}
