import { createHmac } from 'node:crypto';
import type { LocalEvent } from './stripe-state';

/**
 * The signing secret the local stack gives both this server and the webhook handler (STRIPE_WEBHOOK_SECRET).
 * In the cloud it is the endpoint's secret from Stripe's dashboard, kept in Secrets Manager.
 */
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_local_device_data';

/**
 * Stripe's signature header: `t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{raw body}")}`. The secret is used
 * whole, `whsec_` prefix included, as Stripe does and as `stripe.webhooks.constructEvent` checks it.
 */
export const signatureHeader = (secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)) =>
  `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex')}`;

export interface DeliveryAttempt {
  at: number;
  /** The endpoint's HTTP status, or null when it could not be reached. */
  status: number | null;
  error?: string;
}

export interface SentEvent {
  event: LocalEvent;
  url: string;
  attempts: DeliveryAttempt[];
  state: 'pending' | 'delivered' | 'failed';
}

/** Waits before each retry: Stripe retries for days; a local stack a few times within seconds. */
export const RETRY_DELAYS_MS = [250, 1_000, 4_000] as const;

/**
 * Sends events to one endpoint, each independently (so in no guaranteed order, as Stripe), retrying a failed
 * delivery after each of RETRY_DELAYS_MS. Never awaited by the API answer that caused the event.
 */
export const createWebhookSender = ({
  secret,
  delays = RETRY_DELAYS_MS,
}: {
  secret: string;
  delays?: readonly number[];
}) => {
  let url: string | undefined;
  const sent: SentEvent[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const attempt = async (entry: SentEvent) => {
    // Stripe sends the event pretty-printed; the signature covers exactly these bytes.
    const body = JSON.stringify(entry.event, null, 2);
    const record: DeliveryAttempt = { at: Date.now(), status: null };
    try {
      const response = await fetch(entry.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(secret, body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer().catch(() => undefined);
      record.status = response.status;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    entry.attempts.push(record);
    if (record.status !== null && record.status >= 200 && record.status < 300) {
      entry.state = 'delivered';
      return;
    }
    const delay = delays[entry.attempts.length - 1];
    if (delay === undefined || stopped) {
      entry.state = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      track(attempt(entry));
    }, delay);
    timers.add(timer);
  };

  const track = (promise: Promise<void>) => {
    inFlight.add(promise);
    promise.finally(() => inFlight.delete(promise));
  };

  return {
    setUrl: (next: string | undefined) => {
      url = next;
    },
    url: () => url,
    /** Queues an event; without an endpoint configured it is only kept (for `/v1/events`). */
    send: (event: LocalEvent) => {
      if (!url || stopped) return;
      const entry: SentEvent = { event, url, attempts: [], state: 'pending' };
      sent.push(entry);
      track(attempt(entry));
    },
    sent: () => sent,
    /** Resolves when no delivery is under way or waiting for a retry. */
    idle: async () => {
      while (inFlight.size > 0 || timers.size > 0) {
        await Promise.all([...inFlight]);
        if (timers.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([...inFlight]);
    },
  };
};

export type WebhookSender = ReturnType<typeof createWebhookSender>;
