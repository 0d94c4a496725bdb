import type {
  AlertData,
  DeliveredEventType,
  ExportData,
  ReadingsBatch,
  SubscriptionData,
} from '../../../shared/contracts/webhook-events';
import { ONLINE_WINDOW_MS } from '../../../shared/devices/presence';
import type { WebhookDirectory } from './webhook-directory';
import type { WebhookOutbox } from './webhook-outbox';
import { eventIdOf, type QueuedEvent } from './webhook-records';

/**
 * A stored batch larger than this travels as several batches (parts) in order: each waiting event stays far below
 * DynamoDB's 400 KB item, and a delivery of 100 of them below 1 MB most of the time.
 */
export const MAX_PART_BYTES = 100_000;

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const queued = (
  type: DeliveredEventType,
  id: string,
  time: number,
  deviceId: string | undefined,
  data: unknown,
  orderAt = time,
): QueuedEvent => ({ id, type, time, orderAt, ...(deviceId ? { deviceId } : {}), data, bytes: sizeOf(data) });

/** A stored batch as readings.received events: one per part of at most MAX_PART_BYTES, in the readings' order. */
export const readingsEvents = (
  deviceId: string,
  readings: readonly { timestamp: number; values: Record<string, number> }[],
  receivedAt: number,
): QueuedEvent[] => {
  const sorted = [...readings]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map(({ timestamp, values }) => ({ timestamp, values }));
  const parts: (typeof sorted)[] = [];
  let part: typeof sorted = [];
  let bytes = 0;
  for (const reading of sorted) {
    const size = sizeOf(reading) + 1;
    if (part.length && bytes + size > MAX_PART_BYTES) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(reading);
    bytes += size;
  }
  if (part.length) parts.push(part);
  return parts.map((readingsOfPart) => {
    // The same readings resent (the device did not hear the answer) are the same event, kept once per webhook.
    const id = eventIdOf('readings.received', deviceId, JSON.stringify(readingsOfPart));
    const batch: ReadingsBatch = { deviceId, batchId: id, receivedAt, readings: readingsOfPart };
    return queued('readings.received', id, receivedAt, deviceId, { batches: [batch] }, readingsOfPart[0]!.timestamp);
  });
};

/**
 * device.online or device.offline, under the id of the alerts area's state change that found it (`eventId`, its
 * outbox effect's; decision 105): the outbox's redo after a failure is the same event.
 */
export const presenceEvent = (
  deviceId: string,
  change: { online: boolean; lastSeen: number; at: number },
  eventId: string,
): QueuedEvent => {
  const type = change.online ? 'device.online' : 'device.offline';
  return queued(type, eventIdOf(type, eventId), change.at, deviceId, {
    deviceId,
    lastSeen: change.lastSeen,
    onlineWindowMs: ONLINE_WINDOW_MS,
  });
};

/** subscription.changed of one device, once per billing event that changed it. */
export const subscriptionEvent = (data: SubscriptionData, sourceEventId: string, at: number): QueuedEvent =>
  queued(
    'subscription.changed',
    eventIdOf('subscription.changed', sourceEventId, data.deviceId),
    at,
    data.deviceId,
    data,
  );

/** export.ready, once per export. */
export const exportEvent = (data: ExportData, at: number): QueuedEvent =>
  queued('export.ready', eventIdOf('export.ready', data.exportId), at, data.deviceId, data);

/**
 * alert.fired or alert.resolved, under the alert event's own id (`eventId`, the id of the alert.changed event the
 * alerts area puts on the jobs queue for the same change): the outbox's redo after a failure is the same event.
 */
export const alertEvent = (change: 'fired' | 'resolved', data: AlertData, at: number, eventId: string): QueuedEvent =>
  queued(`alert.${change}`, eventId, at, data.deviceId, data);

/**
 * Hands events to the webhooks that take them (docs/integrations.md, "Events"): each device's event goes to the lane
 * of every webhook of the device, its campaigns and its organization that subscribes to its type, and those lanes are
 * woken. All or nothing as far as the caller can tell: a failure throws, and publishing again stores nothing twice.
 */
export const createWebhookPublisher = ({
  directory,
  outbox,
}: {
  directory: Pick<WebhookDirectory, 'subscribers'>;
  outbox: Pick<WebhookOutbox, 'append' | 'wake'>;
}) => {
  const publish = async (events: readonly QueuedEvent[]): Promise<number> => {
    const byWebhook = new Map<string, QueuedEvent[]>();
    const pairs = new Map<string, { deviceId: string; type: DeliveredEventType }>();
    for (const event of events) {
      if (event.deviceId)
        pairs.set(`${event.deviceId}\u0000${event.type}`, { deviceId: event.deviceId, type: event.type });
    }
    const found = await Promise.all(
      [...pairs.values()].map(async (pair) => ({
        ...pair,
        webhooks: await directory.subscribers(pair.deviceId, pair.type),
      })),
    );
    for (const { deviceId, type, webhooks } of found) {
      const mine = events.filter((event) => event.deviceId === deviceId && event.type === type);
      for (const webhookId of webhooks) byWebhook.set(webhookId, [...(byWebhook.get(webhookId) ?? []), ...mine]);
    }
    await Promise.all([...byWebhook].map(([webhookId, queuedEvents]) => outbox.append(webhookId, queuedEvents)));
    await Promise.all([...byWebhook.keys()].map((webhookId) => outbox.wake(webhookId)));
    return byWebhook.size;
  };

  return {
    publish,
    /** Ingest's hook: a stored batch of a device (only the readings it accepted). @returns webhooks reached */
    readingsStored: (
      deviceId: string,
      readings: readonly { timestamp: number; values: Record<string, number> }[],
      receivedAt: number,
    ) => publish(readingsEvents(deviceId, readings, receivedAt)),
    /** Billing's hook: a device's subscription record changed, by the billing event `sourceEventId`. */
    subscriptionChanged: (data: SubscriptionData, sourceEventId: string, at: number) =>
      publish([subscriptionEvent(data, sourceEventId, at)]),
    /** The exports worker's hook: an export is ready to download. */
    exportReady: (data: ExportData, at: number) => publish([exportEvent(data, at)]),
    /**
     * The alerts area's hook (its effects, functions/_shared/alerts/alert-effects.ts): an alert fired or resolved.
     */
    alertChanged: (change: 'fired' | 'resolved', data: AlertData, at: number, eventId: string) =>
      publish([alertEvent(change, data, at, eventId)]),
    /** The alerts area's hook: the device's presence track went offline or came online (decision 105). */
    presenceChanged: (deviceId: string, change: { online: boolean; lastSeen: number; at: number }, eventId: string) =>
      publish([presenceEvent(deviceId, change, eventId)]),
  };
};

export type WebhookPublisher = ReturnType<typeof createWebhookPublisher>;
