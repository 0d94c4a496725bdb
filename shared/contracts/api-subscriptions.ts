import * as z from 'zod';
import { SUBSCRIPTION_STATUSES } from '../billing/subscription-status';
import { EpochMillis, PageQuery, page } from './common';
import { defineRoute, guest, signedIn } from './define-route';
import { CartItem } from './shapes';

const StripeId = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(255, `${what} is at most 255 characters`)
    .regex(/^[A-Za-z0-9_]+$/, `${what} may contain only letters, digits and "_"`);

export const Product = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  active: z.boolean(),
  /** From the product's metadata: the line and tier it sells (the cellular data service has neither). */
  productLine: z.string().optional(),
  tier: z.string().optional(),
  defaultPriceId: z.string().optional(),
});
export type Product = z.infer<typeof Product>;

export const Price = z.object({
  id: z.string(),
  productId: z.string(),
  active: z.boolean(),
  currency: z.string(),
  /** In the currency's smallest unit (cents). */
  unitAmount: z.number().int(),
  interval: z.string().optional(),
  intervalCount: z.number().int().optional(),
  lookupKey: z.string().optional(),
});
export type Price = z.infer<typeof Price>;

export const Invoice = z.object({
  id: z.string(),
  number: z.string().optional(),
  status: z.string(),
  customerId: z.string(),
  subscriptionId: z.string().optional(),
  currency: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  hostedInvoiceUrl: z.string().optional(),
  created: EpochMillis,
});
export type Invoice = z.infer<typeof Invoice>;

/** Spec §3 Subscription (times in milliseconds, spec §9), with the devices it pays for. */
export const Subscription = z.object({
  id: z.string(),
  status: z.string().describe(`one of ${SUBSCRIPTION_STATUSES.join(', ')}`),
  customerId: z.string(),
  currentPeriodStart: EpochMillis.optional(),
  currentPeriodEnd: EpochMillis.optional(),
  trialStart: EpochMillis.optional(),
  trialEnd: EpochMillis.optional(),
  invoiceUrl: z.string().optional(),
  invoiceNumber: z.string().optional(),
  productName: z.string(),
  productId: z.string(),
  tier: z.string().optional(),
  amount: z.number().int(),
  /** The price's currency (ISO 4217, lower case). */
  currency: z.string().optional(),
  interval: z.string().optional(),
  intervalCount: z.number().int().optional(),
  planId: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  /** A change its schedule makes when the period ends (a downgrade): the tier and product then, and when. */
  scheduledTier: z.string().optional(),
  scheduledProductId: z.string().optional(),
  scheduledProductName: z.string().optional(),
  scheduledAt: EpochMillis.optional(),
  deviceIds: z.array(z.string()),
});
export type Subscription = z.infer<typeof Subscription>;

export const Entitlement = z.object({ id: z.string(), lookupKey: z.string(), featureId: z.string() });

const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

const base = '/api/subscriptions';

const DeviceId = z.string().trim().min(1, 'deviceId cannot be empty').max(128);

/**
 * Spec §7's subscription endpoints (all POST), through the real `stripe` SDK (docs/billing.md, "Endpoints"). The
 * catalogue is public; a person sees only their own customer, invoices, subscriptions and entitlements, and a
 * device's subscriptions only with access to the device (not only because it is public); staff see any.
 */
export const subscriptionRoutes = {
  productsList: defineRoute({
    method: 'POST',
    path: `${base}/products/list`,
    access: guest,
    summary: 'The active products: every product line and tier on sale, and the cellular data service.',
    response: list(Product),
  }),
  productsGet: defineRoute({
    method: 'POST',
    path: `${base}/products/get`,
    access: guest,
    summary: 'One product.',
    body: z.object({ productId: StripeId('productId') }).strict(),
    response: Product,
  }),
  pricesListByProduct: defineRoute({
    method: 'POST',
    path: `${base}/prices/list-by-product`,
    access: guest,
    summary: "A product's active prices (monthly and yearly).",
    body: z.object({ productId: StripeId('productId') }).strict(),
    response: list(Price),
  }),
  pricesGet: defineRoute({
    method: 'POST',
    path: `${base}/prices/get`,
    access: guest,
    summary: 'One price.',
    body: z.object({ priceId: StripeId('priceId') }).strict(),
    response: Price,
  }),
  invoicesGet: defineRoute({
    method: 'POST',
    path: `${base}/invoices/get`,
    access: signedIn,
    summary: "One invoice: the caller's own (404 otherwise), or any for staff.",
    body: z.object({ invoiceId: StripeId('invoiceId') }).strict(),
    response: Invoice,
  }),
  customersSearchByEmail: defineRoute({
    method: 'POST',
    path: `${base}/customers/search-by-email`,
    access: signedIn,
    summary:
      'The billing customers of an e-mail (the product reads the first id): the caller’s own e-mail, or any for staff.',
    body: z.object({ email: z.string().trim().email('Give an e-mail address').max(254) }).strict(),
    response: list(z.object({ id: z.string(), email: z.string().optional(), name: z.string().optional() })),
  }),
  subscriptionsListByCustomer: defineRoute({
    method: 'POST',
    path: `${base}/subscriptions/list-by-customer`,
    access: signedIn,
    summary: "A customer's subscriptions, canceled ones too: the caller's own customer, or any for staff.",
    body: z.object({ customerId: StripeId('customerId') }).strict(),
    response: list(Subscription),
  }),
  subscriptionsListByDevice: defineRoute({
    method: 'POST',
    path: `${base}/subscriptions/list-by-device`,
    access: signedIn,
    summary:
      "A device's subscriptions, for its members and staff: the one giving its tier now first, then its past ones (at most 20).",
    body: z.object({ deviceId: z.string().trim().min(1, 'deviceId cannot be empty').max(128) }).strict(),
    response: list(Subscription),
  }),
  activeEntitlementsList: defineRoute({
    method: 'POST',
    path: `${base}/activeEntitlements/list`,
    access: signedIn,
    summary: "A customer's active entitlements: the caller's own customer, or any for staff.",
    body: z.object({ customerId: StripeId('customerId') }).strict(),
    response: list(Entitlement),
  }),
  billingPortal: defineRoute({
    method: 'POST',
    path: `${base}/billing-portal`,
    access: signedIn,
    summary:
      "Spec §6's billing URL: a customer's Stripe billing-portal session (back to `returnUrl`); Administrators and Employees get the billing dashboard's URL (test or live, by the key's mode) instead.",
    body: z.object({ returnUrl: z.string().url().max(2048) }).strict(),
    response: z.object({ url: z.string(), kind: z.enum(['portal', 'dashboard']) }),
  }),
  invoicesListByCustomer: defineRoute({
    method: 'POST',
    path: `${base}/invoices/list-by-customer`,
    access: signedIn,
    summary:
      "A customer's invoices, newest first, paged as Stripe pages them (the cursor is the last invoice's id): the caller's own customer, or any for staff.",
    body: z.object({ customerId: StripeId('customerId') }).strict(),
    query: PageQuery,
    response: page(Invoice),
  }),
  subscriptionsChangeTier: defineRoute({
    method: 'POST',
    path: `${base}/subscriptions/change-tier`,
    access: signedIn,
    summary:
      "Moves a device's subscription to another tier of its line: a higher one now, the prorated difference invoiced at once; a lower one when the period ends (a subscription schedule). For those who own or administer the device, and staff; a subscription that pays for several devices is changed in Manage billing (409).",
    body: z.object({ deviceId: DeviceId, productId: StripeId('productId') }).strict(),
    response: Subscription,
  }),
  subscriptionsCancel: defineRoute({
    method: 'POST',
    path: `${base}/subscriptions/cancel`,
    access: signedIn,
    summary:
      "Cancels a device's subscription at the end of its period (the tier stays until then; a scheduled downgrade is dropped).",
    body: z.object({ deviceId: DeviceId }).strict(),
    response: Subscription,
  }),
  subscriptionsResume: defineRoute({
    method: 'POST',
    path: `${base}/subscriptions/resume`,
    access: signedIn,
    summary:
      "Undoes what a device's subscription would do at period end: a pending cancellation or a scheduled downgrade; it renews as it is.",
    body: z.object({ deviceId: DeviceId }).strict(),
    response: Subscription,
  }),
  checkout: defineRoute({
    method: 'POST',
    path: `${base}/checkout`,
    access: signedIn,
    summary:
      'A Stripe Checkout session for the cart: each item a product for a device the caller owns or administers (staff: any); answers the page to pay on.',
    body: z
      .object({
        items: z.array(CartItem).min(1, 'The cart is empty').max(49, 'At most 49 items a checkout'),
        successUrl: z.string().url().max(2048),
        cancelUrl: z.string().url().max(2048),
      })
      .strict(),
    response: z.object({ sessionId: z.string(), url: z.string() }),
  }),
};
