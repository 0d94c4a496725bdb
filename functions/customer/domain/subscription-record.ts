import type Stripe from 'stripe';
import { isCellular } from '../../../shared/billing/per-device';
import type { ProductLine } from '../../../shared/contracts/devices';
import { tierFromProductName } from '../../../shared/sensor-data/tiers';
import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';
import { scheduledChangeOf } from '../../_shared/billing/scheduled-change';
import { devicesOf } from '../../_shared/billing/subscription-devices';

const ms = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? undefined : seconds * 1000;

/**
 * One record per device the subscription covers, from the subscription as Stripe holds it now (items expanded to
 * their price and product, the latest invoice expanded) and the schedule that manages it, if any (its phases'
 * products expanded: `readSchedule`). A device whose product is not among the items gets none.
 */
export const recordsOf = (
  subscription: Stripe.Subscription,
  lineOf: (deviceId: string, product: Stripe.Product) => ProductLine | undefined,
  now: number,
  schedule?: Stripe.SubscriptionSchedule,
): DeviceSubscriptionRecord[] => {
  const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
  const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  return devicesOf(subscription.metadata).flatMap(({ productId, deviceId }) => {
    const productOf = (candidate: Stripe.SubscriptionItem) =>
      typeof candidate.price.product === 'string' ? undefined : (candidate.price.product as Stripe.Product);
    // The item of the product checkout recorded; after an upgrade or downgrade changed that item's price to another
    // tier's product, the one item of the subscription, or the one of the device's product line.
    const item =
      subscription.items.data.find(
        (candidate) => (productOf(candidate)?.id ?? candidate.price.product) === productId,
      ) ??
      (subscription.items.data.length === 1 ? subscription.items.data[0] : undefined) ??
      subscription.items.data.find((candidate) => {
        const product = productOf(candidate);
        return product !== undefined && lineOf(deviceId, product) === product.metadata?.productLine;
      });
    if (!item || typeof item.price.product !== 'object' || item.price.product.deleted) return [];
    const product = item.price.product as Stripe.Product;
    // The cellular data service (spec §5) is bought per device beside a tier; it decides no tier.
    if (isCellular(product)) return [];
    const line = lineOf(deviceId, product);
    if (!line) return [];
    const scheduled = scheduledChangeOf(schedule, product.id, line);
    return [
      {
        deviceId,
        id: subscription.id,
        status: subscription.status,
        customerId,
        tier: tierFromProductName(line, product.name),
        productId: product.id,
        productName: product.name,
        planId: item.price.id,
        amount: item.price.unit_amount ?? 0,
        ...(item.price.recurring
          ? { interval: item.price.recurring.interval, intervalCount: item.price.recurring.interval_count }
          : {}),
        currentPeriodStart: ms(item.current_period_start),
        currentPeriodEnd: ms(item.current_period_end),
        ...(subscription.trial_start ? { trialStart: ms(subscription.trial_start) } : {}),
        ...(subscription.trial_end ? { trialEnd: ms(subscription.trial_end) } : {}),
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
        ...(scheduled
          ? { ...scheduled, scheduledTier: tierFromProductName(line, scheduled.scheduledProductName) }
          : {}),
        ...(invoice?.hosted_invoice_url ? { invoiceUrl: invoice.hosted_invoice_url } : {}),
        ...(invoice?.number ? { invoiceNumber: invoice.number } : {}),
        syncedAt: now,
        updated: now,
      },
    ];
  });
};
