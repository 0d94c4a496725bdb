import type Stripe from 'stripe';
import type { Invoice, Price, Product, Subscription } from '../../../shared/contracts/api-subscriptions';
import type { ProductLine } from '../../../shared/contracts/devices';
import { MESSAGES } from '../../../shared/messages';
import { tierFromProductName } from '../../../shared/sensor-data/tiers';
import { readSchedule, scheduledChangeOf } from '../../_shared/billing/scheduled-change';
import { resourceMissing } from '../../_shared/billing/stripe-errors';
import { devicesOf } from '../../_shared/billing/subscription-devices';
import { BadRequest } from '../../_shared/errors';
import type { BillingCatalogue } from '../domain/ports';

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

const ms = (seconds: number | null | undefined) => (seconds ? seconds * 1000 : undefined);

const toProduct = (product: Stripe.Product): Product => ({
  id: product.id,
  name: product.name,
  ...(product.description ? { description: product.description } : {}),
  active: product.active,
  ...(product.metadata?.productLine ? { productLine: product.metadata.productLine } : {}),
  ...(product.metadata?.tier ? { tier: product.metadata.tier } : {}),
  ...(idOf(product.default_price as string | Stripe.Price | null)
    ? { defaultPriceId: idOf(product.default_price as never) }
    : {}),
});

const toPrice = (price: Stripe.Price): Price => ({
  id: price.id,
  productId: idOf(price.product as string | Stripe.Product)!,
  active: price.active,
  currency: price.currency,
  unitAmount: price.unit_amount ?? 0,
  ...(price.recurring ? { interval: price.recurring.interval, intervalCount: price.recurring.interval_count } : {}),
  ...(price.lookup_key ? { lookupKey: price.lookup_key } : {}),
});

const subscriptionOfInvoice = (invoice: Stripe.Invoice): string | undefined => {
  const parent = (
    invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } } } }
  ).parent;
  return idOf(parent?.subscription_details?.subscription);
};

const toInvoice = (invoice: Stripe.Invoice): Invoice => ({
  id: invoice.id!,
  ...(invoice.number ? { number: invoice.number } : {}),
  status: invoice.status ?? 'draft',
  customerId: idOf(invoice.customer as string | Stripe.Customer)!,
  ...(subscriptionOfInvoice(invoice) ? { subscriptionId: subscriptionOfInvoice(invoice) } : {}),
  currency: invoice.currency,
  amountDue: invoice.amount_due,
  amountPaid: invoice.amount_paid,
  ...(invoice.hosted_invoice_url ? { hostedInvoiceUrl: invoice.hosted_invoice_url } : {}),
  created: invoice.created * 1000,
});

/**
 * Spec §3 Subscription from Stripe's (items expanded to their price and product, the latest invoice expanded), with
 * what its schedule (phases' products expanded) changes at the next phase.
 */
export const toSubscription = (
  subscription: Stripe.Subscription,
  schedule?: Stripe.SubscriptionSchedule,
): Subscription => {
  const item = subscription.items.data[0];
  const product = item && typeof item.price.product === 'object' ? (item.price.product as Stripe.Product) : undefined;
  const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
  const line = product?.metadata?.productLine as ProductLine | undefined;
  const scheduled = product && scheduledChangeOf(schedule, product.id, line);
  return {
    id: subscription.id,
    status: subscription.status,
    customerId: idOf(subscription.customer as string | Stripe.Customer)!,
    ...(ms(item?.current_period_start) ? { currentPeriodStart: ms(item?.current_period_start) } : {}),
    ...(ms(item?.current_period_end) ? { currentPeriodEnd: ms(item?.current_period_end) } : {}),
    ...(ms(subscription.trial_start) ? { trialStart: ms(subscription.trial_start) } : {}),
    ...(ms(subscription.trial_end) ? { trialEnd: ms(subscription.trial_end) } : {}),
    ...(invoice?.hosted_invoice_url ? { invoiceUrl: invoice.hosted_invoice_url } : {}),
    ...(invoice?.number ? { invoiceNumber: invoice.number } : {}),
    productName: product?.name ?? '',
    productId: product?.id ?? idOf(item?.price.product as string) ?? '',
    ...(line && product ? { tier: tierFromProductName(line, product.name) } : {}),
    amount: (item?.price.unit_amount ?? 0) * (item?.quantity ?? 1),
    ...(item?.price.currency ? { currency: item.price.currency } : {}),
    ...(item?.price.recurring
      ? { interval: item.price.recurring.interval, intervalCount: item.price.recurring.interval_count }
      : {}),
    planId: item?.price.id ?? '',
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    ...(scheduled
      ? { ...scheduled, ...(line ? { scheduledTier: tierFromProductName(line, scheduled.scheduledProductName) } : {}) }
      : {}),
    deviceIds: devicesOf(subscription.metadata).map((pair) => pair.deviceId),
  };
};

const SUBSCRIPTION_EXPAND = ['items.data.price.product', 'latest_invoice'];

/**
 * A customer Stripe does not know (`resource_missing` on `customer`) has nothing: its subscriptions, invoices and
 * entitlements are each an empty list, as they are for a customer who has bought nothing (docs/billing.md).
 */
const noCustomerIsEmpty = async <T>(list: Promise<Stripe.ApiList<T>>): Promise<Stripe.ApiList<T>> => {
  try {
    return await list;
  } catch (error) {
    if (resourceMissing(error) !== 'customer') throw error;
    return { object: 'list', data: [], has_more: false, url: '' };
  }
};

const readSubscription = async (client: Stripe, id: string): Promise<Subscription> => {
  const subscription = await client.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND });
  return toSubscription(subscription, await readSchedule(client, subscription));
};

/**
 * The one adapter of Stripe for the web app's subscription endpoints: every call through the real SDK (locally the
 * same SDK against the local Stripe server), answered in the contract's shapes.
 */
export const createBillingCatalogue = (stripe: () => Promise<Stripe>): BillingCatalogue => ({
  products: async (): Promise<Product[]> =>
    (await (await stripe()).products.list({ active: true, limit: 100 })).data.map(toProduct),
  product: async (id: string): Promise<Stripe.Product | undefined> => {
    try {
      return await (await stripe()).products.retrieve(id);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
  },
  toProduct,
  prices: async (productId: string): Promise<Price[]> =>
    (await (await stripe()).prices.list({ product: productId, active: true, limit: 100 })).data.map(toPrice),
  price: async (id: string): Promise<Price | undefined> => {
    try {
      return toPrice(await (await stripe()).prices.retrieve(id));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
  },
  invoice: async (id: string): Promise<Invoice | undefined> => {
    try {
      return toInvoice(await (await stripe()).invoices.retrieve(id));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
  },
  customersByEmail: async (email: string) =>
    (await (await stripe()).customers.search({ query: `email:'${email.replace(/'/g, "\\'")}'`, limit: 10 })).data.map(
      (customer) => ({
        id: customer.id,
        ...(customer.email ? { email: customer.email } : {}),
        ...(customer.name ? { name: customer.name } : {}),
      }),
    ),
  subscriptionsOf: async (customerId: string): Promise<Subscription[]> => {
    const client = await stripe();
    const listed = await noCustomerIsEmpty(
      client.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }),
    );
    // Stripe expands at most 4 levels: a list's `data.items.data.price.product` is 5, so each is read expanded.
    return Promise.all(listed.data.map((subscription) => readSubscription(client, subscription.id)));
  },
  subscription: async (id: string): Promise<Subscription> => readSubscription(await stripe(), id),
  stripeSubscription: async (id: string): Promise<Stripe.Subscription> =>
    (await stripe()).subscriptions.retrieve(id, { expand: ['items.data.price.product'] }),
  updateSubscription: async (id: string, params: Stripe.SubscriptionUpdateParams) => {
    await (await stripe()).subscriptions.update(id, params);
  },
  scheduleOf: async (subscription: Stripe.Subscription): Promise<Stripe.SubscriptionSchedule> => {
    const client = await stripe();
    const id = idOf(subscription.schedule as string | Stripe.SubscriptionSchedule | null);
    return id
      ? client.subscriptionSchedules.retrieve(id)
      : client.subscriptionSchedules.create({ from_subscription: subscription.id });
  },
  updateSchedule: async (id: string, params: Stripe.SubscriptionScheduleUpdateParams) => {
    await (await stripe()).subscriptionSchedules.update(id, params);
  },
  releaseSchedule: async (id: string) => {
    await (await stripe()).subscriptionSchedules.release(id);
  },
  invoicesOf: async (
    customerId: string,
    { limit, cursor }: { limit: number; cursor?: string },
  ): Promise<{ items: Invoice[]; nextCursor?: string }> => {
    const listed = await noCustomerIsEmpty(
      (await stripe()).invoices.list({ customer: customerId, limit, ...(cursor ? { starting_after: cursor } : {}) }),
    ).catch((error: unknown) => {
      // The cursor is the last invoice's id: one Stripe does not hold is a bad cursor, not a failure of ours.
      if (resourceMissing(error) === 'starting_after') throw new BadRequest(MESSAGES.invalidCursor);
      throw error;
    });
    const items = listed.data.map(toInvoice);
    return { items, ...(listed.has_more && items.length > 0 ? { nextCursor: items.at(-1)!.id } : {}) };
  },
  entitlements: async (customerId: string) =>
    (
      await noCustomerIsEmpty(
        (await stripe()).entitlements.activeEntitlements.list({ customer: customerId, limit: 100 }),
      )
    ).data.map((entitlement) => ({
      id: entitlement.id,
      lookupKey: entitlement.lookup_key,
      featureId: idOf(entitlement.feature as string | { id: string })!,
    })),
  portal: async (customer: string, returnUrl: string) =>
    (await (await stripe()).billingPortal.sessions.create({ customer, return_url: returnUrl })).url,
  livemode: async (): Promise<boolean> =>
    Boolean((await (await stripe()).products.list({ limit: 1 })).data[0]?.livemode),
  checkout: async (session: Stripe.Checkout.SessionCreateParams) => {
    const made = await (await stripe()).checkout.sessions.create(session);
    return { sessionId: made.id, url: made.url! };
  },
});
