import type { Delivery, DeliveryStatus, TargetKind, Webhook } from '../../../../shared/contracts/integrations';
import {
  WEBHOOK_EVENT_INFO,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '../../../../shared/contracts/webhook-events';

export type { WebhookEventType };
export { WEBHOOK_EVENT_TYPES };

/** Each event type's name as the add form and the log show it. */
export const eventLabel = (type: string): string =>
  WEBHOOK_EVENT_INFO[type as WebhookEventType]?.label ?? (type === 'ping' ? 'Test' : type);

export const eventSummary = (type: WebhookEventType): string => WEBHOOK_EVENT_INFO[type].summary;

/** A delivery's status in words and its colour (never the colour alone). */
export const DELIVERY_STATUS: Record<DeliveryStatus, { text: string; tone: string }> = {
  pending: { text: 'Sending', tone: 'pending' },
  retrying: { text: 'Retrying', tone: 'retrying' },
  delivered: { text: 'Delivered', tone: 'delivered' },
  waiting: { text: 'Waiting (webhook off)', tone: 'waiting' },
  failed: { text: 'Failed', tone: 'failed' },
};

/** A webhook's state in words: on, or off and why. */
export const webhookStateText = (webhook: Pick<Webhook, 'status' | 'disabledReason'>): string => {
  if (webhook.status === 'enabled') return 'On';
  switch (webhook.disabledReason) {
    case 'gone':
      return 'Off: the receiver answered 410 Gone';
    case 'failing':
      return 'Off: failed for 24 hours';
    default:
      return 'Off';
  }
};

/** What a target is called in the panel's words. */
export const TARGET_WORDS: Record<TargetKind, string> = {
  device: "this device's",
  campaign: "this campaign's devices'",
  organization: "this organization's devices'",
};

/** The last attempt's answer in a line: its status and time taken, or why none came. */
export const lastAnswer = (delivery: Pick<Delivery, 'attempts'>): string => {
  const last = delivery.attempts.at(-1);
  if (!last) return 'Not tried yet';
  const took = `${last.durationMs} ms`;
  return last.statusCode !== undefined
    ? `HTTP ${last.statusCode} in ${took}`
    : `${last.error ?? 'No answer'} (${took})`;
};

/** The path of a target's page in the app's section (`dashboard` or `admin`). */
export const targetPath = (section: string, kind: TargetKind, id: string): string =>
  `/${section}/${kind === 'device' ? 'devices' : kind === 'campaign' ? 'campaigns' : 'organizations'}/${encodeURIComponent(id)}`;
