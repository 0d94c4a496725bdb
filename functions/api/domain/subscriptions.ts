import { hasRole } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { CartItem } from '../../../shared/contracts/users';
import { deviceMetadata } from '../../_shared/billing/subscription-devices';
import { BadRequest, Forbidden, NotFound } from '../../_shared/errors';
import type { BillingCatalogue } from '../store/billing-catalogue';

/** Messages of the subscription endpoints (docs/billing.md, "Endpoints"). */
export const BILLING_MESSAGES = {
  productNotFound: (id: string) => `Product not found: ${id}`,
  priceNotFound: (id: string) => `Price not found: ${id}`,
  invoiceNotFound: (id: string) => `Invoice not found: ${id}`,
  notYourCustomer: 'You may see only your own billing customer',
  notYourEmail: 'You may look up only your own e-mail',
  deviceNotYours: (id: string) => `You may buy only for a device you own or administer: ${id}`,
  productNotOnSale: (id: string) => `This product is not on sale: ${id}`,
  wrongLine: (product: string, line: string) => `${product} is for ${line.toUpperCase()} devices`,
  returnElsewhere: 'The return pages must be on this web app',
  noBillingAccount: 'You have no billing account yet: it is made when you first buy a tier',
} as const;

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
     * line with their quantities added (Stripe takes each price once); the devices travel in the metadata.
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
        quantities.set(priceId, (quantities.get(priceId) ?? 0) + item.quantity);
      }
      const [customer] = await customersOf(caller);
      const email = (await deps.person(caller.sub))?.email;
      const metadata = { userId: caller.sub, ...deviceMetadata(items) };
      return deps.catalogue.checkout({
        mode: 'subscription',
        line_items: [...quantities].map(([price, quantity]) => ({ price, quantity })),
        ...(customer ? { customer } : email ? { customer_email: email } : {}),
        success_url: returns.successUrl,
        cancel_url: returns.cancelUrl,
        metadata,
        subscription_data: { metadata },
      });
    },
  };
};

export type Subscriptions = ReturnType<typeof createSubscriptions>;
