import { createStripeClient } from '../../functions/_shared/billing/stripe-client';
import { LOCAL_STRIPE_SECRET_KEY } from '../../infra/local/emulators/stripe';
import type { FixtureContext, RouteFixture } from './authz-fixture-types';
import { buyTier } from './billing';
import { type FreshUser, freshUser } from './people';
import { freshDevice } from './sensor-data';
import { stack } from './stack';

export const stripeClient = () => createStripeClient(LOCAL_STRIPE_SECRET_KEY, stack().endpoints.stripe);

/** A billing customer for an e-mail, as checkout or the users area makes one. */
export const customerFor = async (email: string) => (await stripeClient().customers.create({ email })).id;

/** A paid subscription of a fresh customer of `email` (no device): its first invoice. */
export const paidInvoiceFor = async (email: string) => {
  const stripe = stripeClient();
  const product = await stripe.products.retrieve('prod_sd1_tier1');
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer_email: email,
    line_items: [{ price: product.default_price as string, quantity: 1 }],
    success_url: 'http://web.test/ok',
    cancel_url: 'http://web.test/no',
  });
  await fetch(session.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'card=4242424242424242',
    redirect: 'manual',
  });
  const paid = await stripe.checkout.sessions.retrieve(session.id);
  const subscription = await stripe.subscriptions.retrieve(paid.subscription as string);
  return subscription.latest_invoice as string;
};

const someone = () => freshUser({ prefix: 'authz-billing-other' });
const webOrigin = () => stack().endpoints.web ?? 'http://localhost:5173';

/** A checkout of Tier 1 for one device. */
const checkoutOf = (deviceId: string) => ({
  body: {
    items: [{ productId: 'prod_sd1_tier1', deviceId, quantity: 1 }],
    successUrl: `${webOrigin()}/billing/return`,
    cancelUrl: `${webOrigin()}/billing/return?cancelled=1`,
  },
});

/** A request on the caller's own billing customer (the twin's), or, without a twin, on someone else's. */
const ownCustomer = async ({ self }: FixtureContext) => ({
  body: { customerId: await customerFor(self?.email ?? (await someone()).email) },
});
const othersCustomer = async () => ({ body: { customerId: await customerFor((await someone()).email) } });

/** An SD1 device of `owner` (the caller's twin, else someone) with Tier 1 bought and recorded. */
const deviceWithPlan = async (owner?: Pick<FreshUser, 'id' | 'email' | 'token'>) => {
  // buyTier reads only the person's id, e-mail and token.
  const person = (owner ?? (await someone())) as FreshUser;
  const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
  const subscriptionId = await buyTier(person, device.id, 'prod_sd1_tier1');
  return { deviceId: device.id, subscriptionId };
};

/** A plan change's fixture: on the caller's own device, or another person's (403). */
const planChange = (
  body: (plan: { deviceId: string; subscriptionId: string }) => Promise<Record<string, unknown>>,
): RouteFixture => {
  const on = async (owner?: Pick<FreshUser, 'id' | 'email' | 'token'>) => ({
    body: await body(await deviceWithPlan(owner)),
  });
  return {
    twin: true,
    prepare: ({ self }) => on(self),
    owned: ({ self }) => on(self!),
    foreign: () => on(),
  };
};

/** The authorization matrix's fixtures for spec §7's subscription endpoints (merged into the api area's). */
export const BILLING_FIXTURES: Record<string, RouteFixture> = {
  productsList: { prepare: async () => ({}) },
  productsGet: { prepare: async () => ({ body: { productId: 'prod_sd1_tier1' } }) },
  pricesListByProduct: { prepare: async () => ({ body: { productId: 'prod_sd1_tier2' } }) },
  pricesGet: {
    prepare: async () => ({
      body: { priceId: (await stripeClient().products.retrieve('prod_al30_tier3')).default_price as string },
    }),
  },
  // Twins: each caller's own customer, invoices and devices are a fresh account's with the caller's groups.
  invoicesGet: {
    twin: true,
    prepare: async ({ self }) => ({
      body: { invoiceId: await paidInvoiceFor(self?.email ?? (await someone()).email) },
    }),
    owned: async ({ self }) => ({ body: { invoiceId: await paidInvoiceFor(self!.email) } }),
    foreign: async () => ({ body: { invoiceId: await paidInvoiceFor((await someone()).email) } }),
  },
  customersSearchByEmail: {
    twin: true,
    prepare: async ({ self }) => ({ body: { email: self?.email ?? 'nobody@example.com' } }),
    owned: async ({ self }) => ({ body: { email: self!.email } }),
    foreign: async () => ({ body: { email: (await someone()).email } }),
  },
  subscriptionsListByCustomer: { twin: true, prepare: ownCustomer, owned: ownCustomer, foreign: othersCustomer },
  activeEntitlementsList: { twin: true, prepare: ownCustomer, owned: ownCustomer, foreign: othersCustomer },
  subscriptionsListByDevice: {
    twin: true,
    prepare: async ({ self }) => ({
      body: { deviceId: (await freshDevice(self ? { ownerToken: self.token } : {})).id },
    }),
    owned: async ({ self }) => ({ body: { deviceId: (await freshDevice({ ownerToken: self!.token })).id } }),
    foreign: async () => ({ body: { deviceId: (await freshDevice({ ownerToken: (await someone()).token })).id } }),
  },
  // Staff get the dashboard's URL; anyone else needs a billing customer of their own (the twin's).
  billingPortal: {
    twin: true,
    prepare: async ({ self }) => {
      if (self) await customerFor(self.email);
      return { body: { returnUrl: `${webOrigin()}/dashboard` } };
    },
  },
  invoicesListByCustomer: {
    twin: true,
    prepare: async (context) => ({ ...(await ownCustomer(context)), query: { limit: 10 } }),
    owned: async (context) => ({ ...(await ownCustomer(context)), query: { limit: 10 } }),
    foreign: async () => ({ ...(await othersCustomer()), query: { limit: 10 } }),
  },
  subscriptionsChangeTier: planChange(async ({ deviceId }) => ({ deviceId, productId: 'prod_sd1_tier2' })),
  subscriptionsCancel: planChange(async ({ deviceId }) => ({ deviceId })),
  // Something to undo: a cancellation set in Stripe.
  subscriptionsResume: planChange(async ({ deviceId, subscriptionId }) => {
    await stripeClient().subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    return { deviceId };
  }),
  checkout: {
    twin: true,
    prepare: async ({ self }) => checkoutOf((await freshDevice(self ? { ownerToken: self.token } : {})).id),
    owned: async ({ self }) => checkoutOf((await freshDevice({ ownerToken: self!.token })).id),
    // A tier for another person's device.
    foreign: async () => checkoutOf((await freshDevice({ ownerToken: (await someone()).token })).id),
  },
};
