import type Stripe from 'stripe';
import { hasRole } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { soldPerDevice } from '../../../shared/billing/per-device';
import type { Subscription } from '../../../shared/contracts/api-subscriptions';
import type { ProductLine } from '../../../shared/contracts/devices';
import type { CartItem } from '../../../shared/contracts/users';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { tierFromProductName } from '../../../shared/sensor-data/tiers';
import { productLineName } from '../../../shared/text/product-words';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { deviceMetadata, devicesOf } from '../../_shared/billing/subscription-devices';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../_shared/errors';
import type { Counters } from '../../_shared/metrics';
import type { BillingCatalogue } from './ports';

/** Messages of the subscription endpoints (docs/billing.md, "Endpoints"). */
export const BILLING_MESSAGES = {
  productNotFound: (id: string) => `Product not found: ${id}`,
  priceNotFound: (id: string) => `Price not found: ${id}`,
  invoiceNotFound: (id: string) => `Invoice not found: ${id}`,
  notYourCustomer: 'You may see only your own billing customer',
  notYourEmail: 'You may look up only your own e-mail',
  deviceNotYours: (id: string) => `You may buy only for a device you own or administer: ${id}`,
  productNotOnSale: (id: string) => `This product is not on sale: ${id}`,
  wrongLine: (product: string, line: string) => `${product} is for ${productLineName(line)} devices`,
  returnElsewhere: 'The return pages must be on this web app',
  noBillingAccount: 'You have no billing account yet: it is made when you first buy a tier',
  notYourPlan: (id: string) => `You may change the plan only of a device you own or administer: ${id}`,
  noSubscription: 'This device has no subscription: buy a tier first',
  subscriptionOver: (status: string) => `This subscription is ${status}: buy a tier instead`,
  sharedSubscription: (devices: number) => `This subscription pays for ${devices} devices: change it in Manage billing`,
  noItemForLine: 'This subscription has no tier of the device’s product line: change it in Manage billing',
  alreadyOnTier: (product: string) => `The device already has ${product}`,
  noPriceForCycle: (product: string, interval: string) => `${product} has no ${interval}ly price`,
  nothingToUndo: 'Nothing is scheduled to change at the end of this period',
} as const;

/** The statuses under which a subscription still runs and may be changed. */
const RUNNING = new Set(['active', 'trialing', 'past_due']);

/** Tier ids from least to most (the AL lines start at `free`, SD1 at `tier0`). */
const TIER_ORDER = ['tier0', 'free', 'tier1', 'tier2', 'tier3'];

const tierRank = (line: ProductLine, productName: string) => TIER_ORDER.indexOf(tierFromProductName(line, productName));

const scheduleIdOf = (subscription: Stripe.Subscription) =>
  typeof subscription.schedule === 'string' ? subscription.schedule : subscription.schedule?.id;

export interface SubscriptionsDeps {
  catalogue: BillingCatalogue;
  /** The caller's user record: their e-mail and billing id (spec §3 User.subscriptionId). */
  person: (id: string) => Promise<{ email?: string; subscriptionId?: string } | undefined>;
  /** The subscriptions a device has had (the webhook records them), the one giving its tier now first. */
  deviceSubscriptionIds: (deviceId: string) => Promise<string[]>;
  /** The device's product line, when it exists. */
  deviceLine: (deviceId: string) => Promise<string | undefined>;
  /** Whether the caller reaches the device by a relation, a campaign or as staff, with at least `need`. */
  mayReach: (caller: Caller, deviceId: string, need: 'view' | 'manage') => Promise<boolean>;
  /** The web app's origins: checkout returns only there. */
  webOrigins: readonly string[];
  /** Checkout sessions opened, for the operations dashboard. */
  counters: Counters;
}

/** Stripe's dashboard: where staff run billing (spec §6 "admin billing-dashboard URL"). */
export const STRIPE_DASHBOARD = 'https://dashboard.stripe.com';

const staff = (caller: Caller) => hasRole(caller.groups, 'Employees');

export const createSubscriptions = (deps: SubscriptionsDeps) => {
  /** The billing customers that are the caller's: their recorded id and those of their e-mail. */
  const customersOf = async (caller: Caller): Promise<string[]> => {
    const person = await deps.person(caller.sub);
    const byEmail = person?.email ? (await deps.catalogue.customersByEmail(person.email)).map((c) => c.id) : [];
    return [...new Set([...(person?.subscriptionId ? [person.subscriptionId] : []), ...byEmail])];
  };

  const requireCustomer = async (caller: Caller, customerId: string) => {
    if (staff(caller)) return;
    if (!(await customersOf(caller)).includes(customerId)) throw new Forbidden(BILLING_MESSAGES.notYourCustomer);
  };

  /**
   * The subscription that gives the device its tier, for a change: only those who may manage the device (staff
   * any), only while it runs, and only when it pays for this device alone (its other devices would change too).
   */
  const planOf = async (caller: Caller, deviceId: string, audit: AuditNote = NO_AUDIT) => {
    if (!(await deps.mayReach(caller, deviceId, 'manage'))) throw new Forbidden(BILLING_MESSAGES.notYourPlan(deviceId));
    const [id] = await deps.deviceSubscriptionIds(deviceId);
    if (!id) throw new NotFound(BILLING_MESSAGES.noSubscription);
    const subscription = await deps.catalogue.stripeSubscription(id);
    if (!RUNNING.has(subscription.status)) throw new Conflict(BILLING_MESSAGES.subscriptionOver(subscription.status));
    const devices = new Set(devicesOf(subscription.metadata).map((pair) => pair.deviceId));
    if (devices.size > 1) throw new Conflict(BILLING_MESSAGES.sharedSubscription(devices.size));
    const line = (await deps.deviceLine(deviceId)) as ProductLine | undefined;
    const productOf = (item: Stripe.SubscriptionItem) =>
      typeof item.price.product === 'object' ? (item.price.product as Stripe.Product) : undefined;
    const item =
      subscription.items.data.find((candidate) => line && productOf(candidate)?.metadata?.productLine === line) ??
      (subscription.items.data.length === 1 ? subscription.items.data[0] : undefined);
    const product = item && productOf(item);
    if (!line || !item || !product) throw new Conflict(BILLING_MESSAGES.noItemForLine);
    audit.before({
      id: subscription.id,
      status: subscription.status,
      productId: product.id,
      productName: product.name,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      scheduledChange: scheduleIdOf(subscription) !== undefined,
    });
    return { subscription, item, product, line };
  };

  /** The subscription as the route answers it, and in the audit log's shape of a plan (as `planOf` notes before). */
  const answer = async (id: string, audit: AuditNote): Promise<Subscription> => {
    const after = await deps.catalogue.subscription(id);
    audit.after({
      id: after.id,
      status: after.status,
      productId: after.productId,
      productName: after.productName,
      cancelAtPeriodEnd: after.cancelAtPeriodEnd,
      scheduledChange: after.scheduledProductId !== undefined,
      ...(after.scheduledProductName ? { scheduledProductName: after.scheduledProductName } : {}),
    });
    return after;
  };

  /** Drops what the subscription would do at period end: its schedule (a downgrade) and a pending cancellation. */
  const undoPending = async (subscription: Stripe.Subscription) => {
    const scheduleId = scheduleIdOf(subscription);
    if (scheduleId) await deps.catalogue.releaseSchedule(scheduleId);
    if (subscription.cancel_at_period_end) {
      await deps.catalogue.updateSubscription(subscription.id, { cancel_at_period_end: false });
    }
    return Boolean(scheduleId) || subscription.cancel_at_period_end;
  };

  return {
    products: async () => ({ items: await deps.catalogue.products() }),

    product: async (productId: string) => {
      const product = await deps.catalogue.product(productId);
      if (!product) throw new NotFound(BILLING_MESSAGES.productNotFound(productId));
      return deps.catalogue.toProduct(product);
    },

    prices: async (productId: string) => ({ items: await deps.catalogue.prices(productId) }),

    price: async (priceId: string) => {
      const price = await deps.catalogue.price(priceId);
      if (!price) throw new NotFound(BILLING_MESSAGES.priceNotFound(priceId));
      return price;
    },

    invoice: async (caller: Caller, invoiceId: string) => {
      const invoice = await deps.catalogue.invoice(invoiceId);
      // Another's invoice is answered as missing: its id says nothing about whether it exists.
      if (!invoice || (!staff(caller) && !(await customersOf(caller)).includes(invoice.customerId))) {
        throw new NotFound(BILLING_MESSAGES.invoiceNotFound(invoiceId));
      }
      return invoice;
    },

    customersByEmail: async (caller: Caller, email: string) => {
      if (!staff(caller)) {
        const own = (await deps.person(caller.sub))?.email;
        if (own?.toLowerCase() !== email.toLowerCase()) throw new Forbidden(BILLING_MESSAGES.notYourEmail);
      }
      return { items: await deps.catalogue.customersByEmail(email) };
    },

    subscriptionsOfCustomer: async (caller: Caller, customerId: string) => {
      await requireCustomer(caller, customerId);
      return { items: await deps.catalogue.subscriptionsOf(customerId) };
    },

    subscriptionsOfDevice: async (caller: Caller, deviceId: string) => {
      if (!(await deps.mayReach(caller, deviceId, 'view')))
        throw new Forbidden(BILLING_MESSAGES.deviceNotYours(deviceId));
      const ids = await deps.deviceSubscriptionIds(deviceId);
      return { items: await Promise.all(ids.map((id) => deps.catalogue.subscription(id))) };
    },

    invoicesOfCustomer: async (caller: Caller, customerId: string, page: { limit: number; cursor?: string }) => {
      await requireCustomer(caller, customerId);
      return deps.catalogue.invoicesOf(customerId, page);
    },

    /**
     * Another tier of the device's line (docs/billing.md, "Changing a plan"): a higher one applies now, Stripe
     * prorating the rest of the period and invoicing the difference at once; a lower one from the period's end,
     * through a subscription schedule (current price until then, the new one after). A pending downgrade or
     * cancellation gives way to the new choice; choosing the tier it has undoes a scheduled downgrade.
     */
    changeTier: async (caller: Caller, deviceId: string, productId: string, audit: AuditNote = NO_AUDIT) => {
      const { subscription, item, product, line } = await planOf(caller, deviceId, audit);
      const target = await deps.catalogue.product(productId);
      if (!target?.active) throw new BadRequest(BILLING_MESSAGES.productNotOnSale(productId));
      if (target.metadata?.productLine !== line) {
        throw new BadRequest(BILLING_MESSAGES.wrongLine(target.name, target.metadata?.productLine ?? line));
      }
      if (target.id === product.id) {
        const scheduleId = scheduleIdOf(subscription);
        if (!scheduleId) throw new Conflict(BILLING_MESSAGES.alreadyOnTier(product.name));
        await deps.catalogue.releaseSchedule(scheduleId);
        return answer(subscription.id, audit);
      }
      const cycle = item.price.recurring;
      const price = (await deps.catalogue.prices(target.id)).find(
        (candidate) => candidate.interval === cycle?.interval && candidate.intervalCount === cycle?.interval_count,
      );
      if (!price) throw new BadRequest(BILLING_MESSAGES.noPriceForCycle(target.name, cycle?.interval ?? 'month'));
      if (tierRank(line, target.name) > tierRank(line, product.name)) {
        const scheduleId = scheduleIdOf(subscription);
        if (scheduleId) await deps.catalogue.releaseSchedule(scheduleId);
        await deps.catalogue.updateSubscription(subscription.id, {
          items: [{ id: item.id, price: price.id }],
          proration_behavior: 'always_invoice',
        });
        return answer(subscription.id, audit);
      }
      // Stripe refuses a schedule on a subscription set to cancel: the downgrade is the choice that stands.
      if (subscription.cancel_at_period_end) {
        await deps.catalogue.updateSubscription(subscription.id, { cancel_at_period_end: false });
      }
      const schedule = await deps.catalogue.scheduleOf(subscription);
      const running = schedule.current_phase ?? {
        start_date: item.current_period_start,
        end_date: item.current_period_end,
      };
      const now = subscription.items.data.map((each) => ({ price: each.price.id, quantity: each.quantity ?? 1 }));
      await deps.catalogue.updateSchedule(schedule.id, {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          { items: now, start_date: running.start_date, end_date: running.end_date },
          {
            items: subscription.items.data.map((each, index) =>
              each.id === item.id ? { price: price.id, quantity: each.quantity ?? 1 } : now[index]!,
            ),
            duration: { interval: cycle!.interval, interval_count: cycle!.interval_count },
          },
        ],
      });
      return answer(subscription.id, audit);
    },

    /** Cancels at period end: the tier stays until then; a scheduled downgrade is dropped (Stripe wants one or the other). */
    cancel: async (caller: Caller, deviceId: string, audit: AuditNote = NO_AUDIT) => {
      const { subscription } = await planOf(caller, deviceId, audit);
      const scheduleId = scheduleIdOf(subscription);
      if (scheduleId) await deps.catalogue.releaseSchedule(scheduleId);
      if (!subscription.cancel_at_period_end) {
        await deps.catalogue.updateSubscription(subscription.id, { cancel_at_period_end: true });
      }
      return answer(subscription.id, audit);
    },

    /** Keeps the plan as it is: undoes a pending cancellation or a scheduled downgrade. */
    resume: async (caller: Caller, deviceId: string, audit: AuditNote = NO_AUDIT) => {
      const { subscription } = await planOf(caller, deviceId, audit);
      if (!(await undoPending(subscription))) throw new Conflict(BILLING_MESSAGES.nothingToUndo);
      return answer(subscription.id, audit);
    },

    entitlements: async (caller: Caller, customerId: string) => {
      await requireCustomer(caller, customerId);
      return { items: await deps.catalogue.entitlements(customerId) };
    },

    /** Spec §6: staff get the billing dashboard (test or live by the key's mode); a customer their portal. */
    portal: async (caller: Caller, returnUrl: string) => {
      if (staff(caller)) {
        const live = await deps.catalogue.livemode();
        return { url: live ? STRIPE_DASHBOARD : `${STRIPE_DASHBOARD}/test`, kind: 'dashboard' as const };
      }
      if (!deps.webOrigins.includes(new URL(returnUrl).origin)) throw new BadRequest(BILLING_MESSAGES.returnElsewhere);
      const [customer] = await customersOf(caller);
      if (!customer) throw new NotFound(BILLING_MESSAGES.noBillingAccount);
      return { url: await deps.catalogue.portal(customer, returnUrl), kind: 'portal' as const };
    },

    /**
     * One Checkout session for the cart: each device must be the caller's to manage (staff: any) and each product
     * on sale and for the device's line (the cellular data service is for any device). Items of one price are one
     * line with their quantities added (Stripe takes each price once); the devices travel in the metadata. What is
     * sold per device (a tier, the cellular data service) counts once per device, whatever the item's quantity or how
     * often the body names it: more buys nothing more.
     */
    checkout: async (
      caller: Caller,
      items: readonly CartItem[],
      returns: { successUrl: string; cancelUrl: string },
    ) => {
      for (const url of [returns.successUrl, returns.cancelUrl]) {
        if (!deps.webOrigins.includes(new URL(url).origin)) throw new BadRequest(BILLING_MESSAGES.returnElsewhere);
      }
      const quantities = new Map<string, number>();
      const counted = new Set<string>();
      const bought: CartItem[] = [];
      for (const item of items) {
        if (!(await deps.mayReach(caller, item.deviceId, 'manage'))) {
          throw new Forbidden(BILLING_MESSAGES.deviceNotYours(item.deviceId));
        }
        const product = await deps.catalogue.product(item.productId);
        const priceId = typeof product?.default_price === 'string' ? product.default_price : product?.default_price?.id;
        if (!product?.active || !priceId) throw new BadRequest(BILLING_MESSAGES.productNotOnSale(item.productId));
        const line = product.metadata?.productLine;
        const deviceLine = await deps.deviceLine(item.deviceId);
        if (line && deviceLine !== line) throw new BadRequest(BILLING_MESSAGES.wrongLine(product.name, line));
        const perDevice = soldPerDevice({ name: product.name, tier: product.metadata?.tier });
        if (perDevice && counted.has(`${priceId}|${item.deviceId}`)) continue;
        counted.add(`${priceId}|${item.deviceId}`);
        bought.push(item);
        quantities.set(priceId, (quantities.get(priceId) ?? 0) + (perDevice ? 1 : item.quantity));
      }
      const [customer] = await customersOf(caller);
      const email = (await deps.person(caller.sub))?.email;
      const metadata = { userId: caller.sub, ...deviceMetadata(bought) };
      const session = await deps.catalogue.checkout({
        mode: 'subscription',
        line_items: [...quantities].map(([price, quantity]) => ({ price, quantity })),
        ...(customer ? { customer } : email ? { customer_email: email } : {}),
        success_url: returns.successUrl,
        cancel_url: returns.cancelUrl,
        metadata,
        subscription_data: { metadata },
      });
      deps.counters.count(APP_METRICS.checkouts);
      return session;
    },
  };
};

export type Subscriptions = ReturnType<typeof createSubscriptions>;
