import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { DeliveredEventType, WebhookEventType } from '../../../shared/contracts/webhook-events';

/**
 * How the integrations area keeps a webhook and its lane (docs/integrations.md), written once for the area and for
 * the areas that publish events to it (ingest, billing, exports, alerts): the webhooks table's record, and the
 * deliveries table's items under the webhook's id.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Everything of a delivery is kept 30 days (the retention), then expires (checked on read too). */
export const KEEP_MS = 30 * DAY_MS;

/** The deliveries table's sort keys, by kind of item under a webhook's id. */
export const LANE_SK = 'lane';
export const OUTBOX_PREFIX = 'o#';
/** Test events: sent first, even while the lane waits to retry or the webhook is off. */
export const TEST_PREFIX = 't#';
export const DELIVERY_PREFIX = 'd#';

/** What a webhook's record holds that its publishers read: whom it serves and whether it collects events. */
export interface WebhookSubscription {
  id: string;
  events: readonly WebhookEventType[];
  status: 'enabled' | 'disabled';
  disabledReason?: 'owner' | 'gone' | 'failing';
}

/**
 * Whether events are kept for the webhook: while it is on, and while it is off after a day of failures (so that
 * turning it on again sends what waited). Turned off by its owner, or gone (410), it collects nothing new.
 */
export const collects = (webhook: Pick<WebhookSubscription, 'status' | 'disabledReason'>): boolean =>
  webhook.status === 'enabled' || webhook.disabledReason === 'failing';

/** Whether the webhook takes device.online or device.offline, on or off. */
export const takesPresence = (webhook: Pick<WebhookSubscription, 'events'>): boolean =>
  webhook.events.some((type) => type === 'device.online' || type === 'device.offline');

/**
 * Whether the webhook has its target's devices' presence watched by the alerts area (decision 105): it collects
 * events and takes device.online or device.offline.
 */
export const watchesPresence = (webhook: Pick<WebhookSubscription, 'events' | 'status' | 'disabledReason'>): boolean =>
  collects(webhook) && takesPresence(webhook);

/** The webhooks table's `target` key, which its byTarget index is on. */
export const targetKey = (kind: string, id: string): string => `${kind}#${id}`;

/** One event waiting in a webhook's lane: a stored item of its own until a delivery takes it. */
export interface QueuedEvent {
  /** The event's id, the same for every webhook it reaches. */
  id: string;
  type: DeliveredEventType;
  /** When it happened (ms). */
  time: number;
  /** Where it sorts in the lane (ms): a batch's first reading, otherwise `time`. */
  orderAt: number;
  deviceId?: string;
  data: unknown;
  /** Its data's JSON size, counted once. */
  bytes: number;
}

const pad = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(13, '0');

/** The sort key of a waiting event: by `orderAt`, then id, so one device's batches wait in their readings' order. */
export const queuedKey = (event: Pick<QueuedEvent, 'orderAt' | 'id' | 'type'>): string =>
  `${event.type === 'ping' ? TEST_PREFIX : OUTBOX_PREFIX}${pad(event.orderAt)}#${event.id}`;

/** The stored item of a waiting event. */
export const queuedItem = (webhookId: string, event: QueuedEvent, now: number) => ({
  webhookId,
  sk: queuedKey(event),
  eventId: event.id,
  type: event.type,
  time: event.time,
  ...(event.deviceId ? { deviceId: event.deviceId } : {}),
  data: event.data,
  bytes: event.bytes,
  expiresAt: Math.floor((now + KEEP_MS) / 1000),
});

/** A waiting event as read back: with its key, and when it expires (ms). */
export type StoredQueuedEvent = QueuedEvent & { sk: string; expiresAt: number };

export const queuedEventOf = (item: Record<string, unknown>): StoredQueuedEvent => ({
  sk: String(item.sk),
  expiresAt: Number(item.expiresAt) * 1000,
  id: String(item.eventId),
  type: item.type as DeliveredEventType,
  time: Number(item.time),
  orderAt: Number(String(item.sk).slice(2, 15)),
  ...(typeof item.deviceId === 'string' ? { deviceId: item.deviceId } : {}),
  data: item.data,
  bytes: Number(item.bytes ?? 0),
});

/** A stable id from what identifies an event: the same event published twice is stored once per webhook. */
export const eventIdOf = (...parts: (string | number)[]): string =>
  `evt_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24)}`;

/** The integrations queue's message: a webhook's lane should run (an event waits, or its retry timer ran out). */
export const LaneWake = z.object({
  kind: z.literal('lane.wake'),
  webhookId: z.string().min(1),
  /** Set on a retry timer's message: only the lane's current timer continues (docs/integrations.md). */
  token: z.string().optional(),
  /** With `token`: when the retry is due (ms). */
  dueAt: z.number().int().nonnegative().optional(),
  /** The message's delay (s, at most SQS's 900). */
  delaySeconds: z.number().int().min(0).max(900).optional(),
});
export type LaneWake = z.infer<typeof LaneWake>;

/** A wake request older than this is taken to have been lost, and the next event sends another. */
export const WAKE_STALE_MS = 60_000;
/**
 * Events published within this of each other share a lane run, and so a request: the wake waits a second (SQS's
 * smallest delay), which bounds what batching adds to an event's way.
 */
export const WAKE_DELAY_SECONDS = 1;
