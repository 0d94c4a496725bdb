import type Stripe from 'stripe';
import type { BillingNotice, DomainEvent } from '../../../shared/contracts/events';
import { ownValue } from '../../../shared/objects/own-value';
import { LOG_EVENTS } from '../../../shared/operations/log-events';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { readSchedule } from '../../_shared/billing/scheduled-change';
import { resourceMissing } from '../../_shared/billing/stripe-errors';
import { devicesOf } from '../../_shared/billing/subscription-devices';
import { BadRequest, DomainError, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { Counters } from '../../_shared/metrics';
import { type CartStore, removeBoughtItems } from './bought-items';
import { currentPlan } from './device-plan';
import type { BillingStore, SubscriptionWebhooks } from './ports';
import { recordsOf } from './subscription-record';

/** Stripe's own default: a signature older than this is a replay; one as far in the future is refused too. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header, in seconds. */
const signedAtOf = (header: string): number | undefined => {
  const t = /(?:^|,)\s*t=(\d+)/.exec(header)?.[1];
  return t === undefined ? undefined : Number(t);
};

export const INVALID_SIGNATURE = 'The Stripe-Signature header does not sign this body';

export const EVENT_NOT_WORKED = 'The event could not be worked now; send it again';

/** The events billing works; any other is acknowledged and left. */
const SUBSCRIPTION_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
  // A schedule (a downgrade at period end) changes what the record says comes next.
  'subscription_schedule.created',
  'subscription_schedule.updated',
  'subscription_schedule.released',
  'subscription_schedule.canceled',
]);

/** The subscription an event is about, whatever the object it carries. */
export const subscriptionIdOf = (event: Stripe.Event): string | undefined => {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type.startsWith('customer.subscription.')) return object.id as string;
  // A released schedule no longer names its subscription but the one it let go.
  if (event.type.startsWith('subscription_schedule.') && !object.subscription) {
    return (object.released_subscription as string | null) ?? undefined;
  }
  const direct = object.subscription;
  if (typeof direct === 'string') return direct;
  if (direct && typeof direct === 'object') return (direct as { id: string }).id;
  // Invoices of API versions from 2025 name it under parent.subscription_details.
  const parent = object.parent as { subscription_details?: { subscription?: string | { id: string } } } | undefined;
  const nested = parent?.subscription_details?.subscription;
  return typeof nested === 'string' ? nested : nested?.id;
};

/** The events whose customer must hear of them through the notifications worker. */
const NOTICES: Record<string, BillingNotice['notice']> = {
  'invoice.payment_failed': 'payment_failed',
  'customer.subscription.trial_will_end': 'trial_will_end',
};

export interface WebhookDeps {
  log: Log;
  events: { publish: (events: readonly DomainEvent[]) => Promise<void> };
  stripe: () => Promise<Stripe>;
  webhookSecret: () => Promise<string>;
  store: BillingStore;
  /** The buyers' carts, which a paid checkout empties of what it bought. */
  carts: CartStore;
  /** The devices' webhooks, told of each subscription record this event changed. */
  deviceWebhooks: SubscriptionWebhooks;
  now: () => number;
  /** Deliveries refused or failed, for the operations dashboard. */
  counters: Counters;
}

/**
 * Stripe's webhook (docs/billing.md, "Webhooks"): the signature is checked on the exact body; an event already
 * worked is acknowledged again and nothing more; otherwise the subscription it concerns is read from Stripe now and
 * each device it covers gets its record, so deliveries that come twice or out of order converge on Stripe's state.
 */
export const createWebhooks = (deps: WebhookDeps) => {
  const { log } = deps;
  const receive = async (rawBody: string | undefined, signature: string | undefined) => {
    const stripe = await deps.stripe();
    let event: Stripe.Event;
    try {
      const receivedAt = deps.now();
      event = stripe.webhooks.constructEvent(
        rawBody ?? '',
        signature ?? '',
        await deps.webhookSecret(),
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        receivedAt,
      );
      // The SDK refuses only what is too old; a timestamp from the future is no fresher signature.
      if ((signedAtOf(signature ?? '') ?? 0) * 1000 - receivedAt > SIGNATURE_TOLERANCE_SECONDS * 1000) {
        throw new Error('Timestamp outside the tolerance zone (in the future)');
      }
    } catch (error) {
      // The event field is what the webhook-refusal alarm counts (a metric filter on this function's log group).
      log('warn', 'Stripe webhook refused', {
        event: LOG_EVENTS.stripeWebhookRefused,
        error: error instanceof Error ? error.message : String(error),
      });
      throw new BadRequest(INVALID_SIGNATURE);
    }
    // Signed by Stripe but not an event to work: acknowledged (a retry would bring the same), said in the log.
    const notApplied = async (reason: string) => {
      const id = typeof event?.id === 'string' && event.id ? event.id : undefined;
      const type = typeof event?.type === 'string' ? event.type : undefined;
      log('warn', 'Stripe event acknowledged, not applied', { eventId: id, type, reason });
      if (id) await deps.store.markWorked(id, String(type), deps.now());
      return { received: true as const };
    };
    if (typeof event?.id !== 'string' || !event.id || typeof event.type !== 'string') {
      return notApplied('not an event: no id or type');
    }
    if (await deps.store.wasWorked(event.id)) return { received: true as const, duplicate: true };
    if (SUBSCRIPTION_EVENTS.has(event.type) && (typeof event.data?.object !== 'object' || event.data.object === null)) {
      return notApplied('no data.object');
    }
    const subscriptionId = SUBSCRIPTION_EVENTS.has(event.type) ? subscriptionIdOf(event) : undefined;
    if (subscriptionId) {
      const readAt = deps.now();
      let subscription: Stripe.Response<Stripe.Subscription>;
      try {
        subscription = await stripe.subscriptions.retrieve(subscriptionId, {
          expand: ['items.data.price.product', 'latest_invoice'],
        });
      } catch (error) {
        if (resourceMissing(error)) return notApplied(`Stripe knows no subscription ${subscriptionId}`);
        throw error;
      }
      const lines = new Map<string, Awaited<ReturnType<BillingStore['productLineOf']>>>();
      for (const { deviceId } of devicesOf(subscription.metadata)) {
        lines.set(deviceId, await deps.store.productLineOf(deviceId));
      }
      const notice = ownValue(NOTICES, event.type);
      const buyer = subscription.metadata?.userId;
      if (notice && buyer) {
        const product = subscription.items.data.map((item) => item.price.product).find((p) => typeof p === 'object') as
          | Stripe.Product
          | undefined;
        const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
        // Before the event is marked worked: a refused publish fails the delivery, and Stripe sends it again.
        await deps.events.publish([
          {
            kind: 'billing.notice',
            eventId: event.id,
            notice,
            subscriptionId: subscription.id,
            actorId: buyer,
            productName: product?.name ?? 'your subscription',
            deviceIds: [...new Set(devicesOf(subscription.metadata).map((pair) => pair.deviceId))],
            ...(invoice?.hosted_invoice_url ? { invoiceUrl: invoice.hosted_invoice_url } : {}),
            ...(subscription.trial_end ? { trialEnd: subscription.trial_end * 1000 } : {}),
            at: deps.now(),
          },
        ]);
      }
      for (const record of recordsOf(
        subscription,
        (deviceId, product) => lines.get(deviceId) ?? (product.metadata?.productLine as never),
        readAt,
        await readSchedule(stripe, subscription),
      )) {
        await deps.store.putHistory(record);
        const current = currentPlan(await deps.store.historyOf(record.deviceId), deps.now());
        // Stamped with this read: of two deliveries decided side by side, the later decision stands.
        if (current && (await deps.store.putSubscription({ ...current, syncedAt: readAt }))) {
          // Before the event is marked worked: a failure fails the delivery, and Stripe's resend tells them again.
          await deps.deviceWebhooks.subscriptionChanged(
            {
              deviceId: current.deviceId,
              subscriptionId: current.id,
              status: current.status,
              tier: current.tier,
              productName: current.productName,
              ...(current.currentPeriodEnd !== undefined ? { currentPeriodEnd: current.currentPeriodEnd } : {}),
              cancelAtPeriodEnd: current.cancelAtPeriodEnd,
            },
            event.id,
            deps.now(),
          );
        }
      }
      if (event.type === 'checkout.session.completed') await removeBoughtItems(deps.carts, subscription, deps.now, log);
    }
    await deps.store.markWorked(event.id, event.type, deps.now());
    return { received: true as const };
  };

  return {
    /** Stripe resends a delivery that failed; each failure is counted, a refused signature as much as a lost store. */
    receive: async (rawBody: string | undefined, signature: string | undefined) => {
      try {
        return await receive(rawBody, signature);
      } catch (error) {
        deps.counters.count(APP_METRICS.webhookFailures);
        if (error instanceof DomainError) throw error;
        // A well-signed event that could not be worked now (Stripe or the store failing): Stripe sends it again.
        log('error', 'Stripe event not worked; Stripe will send it again', {
          error: error instanceof Error ? error.message : String(error),
        });
        throw new ServiceUnavailable(EVENT_NOT_WORKED);
      }
    },
  };
};
