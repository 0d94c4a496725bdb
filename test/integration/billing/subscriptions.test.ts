import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { BILLING_MESSAGES, STRIPE_DASHBOARD } from '../../../functions/api/domain/subscriptions';
import { stripeClient } from '../../support/authz-billing-fixtures';
import { type FreshUser, freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, tokenOf } from '../../support/stack';

const billing = (token?: string) => apiAs('api', token);
const web = () => stack().endpoints.web ?? 'http://localhost:5173';
const returns = () => ({ successUrl: `${web()}/billing/return`, cancelUrl: `${web()}/billing/return?cancelled=1` });

const tierOf = async (deviceId: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: stack().tables.deviceSubscriptions!, Key: { deviceId }, ConsistentRead: true }),
    )
  ).Item?.tier as string | undefined;

const until = async (check: () => Promise<boolean>, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
};

const pay = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'card=4242 4242 4242 4242',
    redirect: 'manual',
  });

describe('billing: the subscription endpoints (spec §7)', () => {
  it('list the catalogue to anyone: each line and tier with its prices, and the cellular data service', async () => {
    const { items } = await billing().productsList({});
    const sd1Tier2 = items.find((p) => p.id === 'prod_sd1_tier2')!;
    expect(sd1Tier2).toMatchObject({ name: 'SD1 Tier 2', productLine: 'sd1', tier: 'tier2', active: true });
    expect(items.some((p) => p.name.includes('ellular data service'))).toBe(true);
    const prices = await billing().pricesListByProduct({ body: { productId: 'prod_sd1_tier2' } });
    expect(prices.items.map((p) => [p.interval, p.unitAmount]).sort()).toEqual([
      ['month', 1_900],
      ['year', 19_000],
    ]);
    expect(await billing().pricesGet({ body: { priceId: sd1Tier2.defaultPriceId! } })).toMatchObject({
      productId: 'prod_sd1_tier2',
      interval: 'month',
    });
    expect(await billing().productsGet({ body: { productId: 'prod_al30_tier3' } })).toMatchObject({
      name: 'AL30 Tier 3',
    });
    const missing = await apiRejection(billing().productsGet({ body: { productId: 'prod_nothing' } }));
    expect(missing).toMatchObject({ status: 404, message: BILLING_MESSAGES.productNotFound('prod_nothing') });
  });

  describe('a person buying for two devices', () => {
    let buyer: FreshUser;
    let stranger: FreshUser;
    let devices: string[];
    let customerId: string;

    beforeAll(async () => {
      [buyer, stranger] = await Promise.all([
        freshUser({ prefix: 'bill-two' }),
        freshUser({ prefix: 'bill-stranger' }),
      ]);
      devices = [
        (await freshDevice({ productLine: 'sd1', ownerToken: buyer.token })).id,
        (await freshDevice({ productLine: 'sd1', ownerToken: buyer.token })).id,
      ];
      const session = await billing(buyer.token).checkout({
        body: {
          // What is sold per device counts once per device: a quantity of 3, an item named twice and a service of 4
          // buy what quantities of 1 buy (issue 36).
          items: [
            ...devices.map((deviceId, at) => ({ productId: 'prod_sd1_tier2', deviceId, quantity: at === 0 ? 3 : 1 })),
            { productId: 'prod_sd1_tier2', deviceId: devices[1]!, quantity: 1 },
            { productId: 'prod_cellular_data_service', deviceId: devices[0]!, quantity: 4 },
          ],
          ...returns(),
        },
      });
      // One price for both devices: one line of quantity 2 (Stripe takes each price once), and the service.
      const items = await stripeClient().checkout.sessions.listLineItems(session.sessionId);
      expect(items.data.map((item) => item.quantity).sort()).toEqual([1, 2]);
      expect((await pay(session.url)).status).toBe(303);
      await until(
        async () => (await tierOf(devices[0]!)) === 'tier2' && (await tierOf(devices[1]!)) === 'tier2',
        'both tiers',
      );
      customerId = (await billing(buyer.token).customersSearchByEmail({ body: { email: buyer.email } })).items[0]!.id;
    });

    it("shows the buyer their customer, subscription, invoice and entitlements, and a device's subscription", async () => {
      const [subscription] = (await billing(buyer.token).subscriptionsListByCustomer({ body: { customerId } })).items;
      expect(subscription).toMatchObject({ status: 'active', customerId, cancelAtPeriodEnd: false });
      expect(subscription!.deviceIds.sort()).toEqual([...devices, devices[0]!].sort());
      expect(subscription!.currentPeriodEnd! - subscription!.currentPeriodStart!).toBeGreaterThan(27 * 86_400_000);
      const byDevice = await billing(buyer.token).subscriptionsListByDevice({ body: { deviceId: devices[1]! } });
      expect(byDevice.items.map((s) => s.id)).toEqual([subscription!.id]);
      const invoiceId = (await stripeClient().subscriptions.retrieve(subscription!.id)).latest_invoice as string;
      const invoice = await billing(buyer.token).invoicesGet({ body: { invoiceId } });
      expect(invoice).toMatchObject({ customerId, status: 'paid', amountPaid: 2 * 1_900 + 400 });
      expect(invoice.hostedInvoiceUrl).toContain('/invoices/');
      const entitlements = await billing(buyer.token).activeEntitlementsList({ body: { customerId } });
      expect(entitlements.items.map((e) => e.lookupKey)).toContain('tier2');
    });

    it('gives the buyer their billing portal, staff the test dashboard, and a person without billing a 404', async () => {
      const portal = await billing(buyer.token).billingPortal({ body: { returnUrl: `${web()}/dashboard` } });
      expect(portal.kind).toBe('portal');
      const page = await (await fetch(portal.url)).text();
      expect(page).toContain('SD1 Tier 2');
      expect(page).toContain(`${web()}/dashboard`);
      expect(
        await apiRejection(billing(buyer.token).billingPortal({ body: { returnUrl: 'https://evil.example/' } })),
      ).toMatchObject({ status: 400, message: BILLING_MESSAGES.returnElsewhere });
      const newcomer = await freshUser({ prefix: 'bill-newcomer' });
      expect(
        await apiRejection(billing(newcomer.token).billingPortal({ body: { returnUrl: `${web()}/dashboard` } })),
      ).toMatchObject({ status: 404, message: BILLING_MESSAGES.noBillingAccount });
      const staff = await billing(await tokenOf('admin@example.com')).billingPortal({
        body: { returnUrl: `${web()}/admin` },
      });
      // The local Stripe server is test mode, as every test key is.
      expect(staff).toEqual({ kind: 'dashboard', url: `${STRIPE_DASHBOARD}/test` });
    });

    it("refuses anyone else the buyer's billing, and lets staff see it", async () => {
      const other = billing(stranger.token);
      expect((await apiRejection(other.subscriptionsListByCustomer({ body: { customerId } }))).status).toBe(403);
      expect((await apiRejection(other.activeEntitlementsList({ body: { customerId } }))).status).toBe(403);
      expect((await apiRejection(other.customersSearchByEmail({ body: { email: buyer.email } }))).status).toBe(403);
      expect((await apiRejection(other.subscriptionsListByDevice({ body: { deviceId: devices[0]! } }))).status).toBe(
        403,
      );
      const [subscription] = (await billing(buyer.token).subscriptionsListByCustomer({ body: { customerId } })).items;
      const invoiceId = (await stripeClient().subscriptions.retrieve(subscription!.id)).latest_invoice as string;
      expect((await apiRejection(other.invoicesGet({ body: { invoiceId } }))).status).toBe(404);
      const staff = billing(await tokenOf('employee@example.com'));
      expect((await staff.subscriptionsListByCustomer({ body: { customerId } })).items).toHaveLength(1);
      expect((await staff.invoicesGet({ body: { invoiceId } })).customerId).toBe(customerId);
    });
  });

  describe('reads Stripe cannot answer (audit)', () => {
    it("answers a cursor that is not one of the customer's invoices with 400, to the customer themself", async () => {
      const person = await freshUser({ prefix: 'bill-cursor' });
      const customerId = (await stripeClient().customers.create({ email: person.email })).id;
      const mine = billing(person.token);
      await expect(mine.invoicesListByCustomer({ body: { customerId }, query: { limit: 10 } })).resolves.toEqual({
        items: [],
      });
      for (const cursor of ['in_nothing', 'not-an-invoice', '__proto__']) {
        expect(
          await apiRejection(mine.invoicesListByCustomer({ body: { customerId }, query: { limit: 10, cursor } })),
        ).toMatchObject({ status: 400, message: 'Invalid page cursor' });
      }
    });

    it('answers a customer Stripe does not know alike on every customer read: 200 with no items', async () => {
      const staff = billing(await tokenOf('employee@example.com'));
      const body = { customerId: 'cus_nobody_here' };
      await expect(staff.subscriptionsListByCustomer({ body })).resolves.toEqual({ items: [] });
      await expect(staff.activeEntitlementsList({ body })).resolves.toEqual({ items: [] });
      await expect(staff.invoicesListByCustomer({ body, query: { limit: 10 } })).resolves.toEqual({ items: [] });
      // Not staff: no customer of theirs, whether Stripe knows it or not.
      const person = billing((await freshUser({ prefix: 'bill-nobody' })).token);
      expect((await apiRejection(person.activeEntitlementsList({ body }))).status).toBe(403);
    });
  });

  it("refuses a checkout for another's device, a product of another line, and a return page elsewhere", async () => {
    const person = await freshUser({ prefix: 'bill-refused' });
    const mine = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const theirs = await freshDevice({ productLine: 'sd1' });
    const buy = (productId: string, deviceId: string, over: Partial<ReturnType<typeof returns>> = {}) =>
      apiRejection(
        billing(person.token).checkout({
          body: { items: [{ productId, deviceId, quantity: 1 }], ...returns(), ...over },
        }),
      );
    expect(await buy('prod_sd1_tier2', theirs.id)).toMatchObject({
      status: 403,
      message: BILLING_MESSAGES.deviceNotYours(theirs.id),
    });
    expect(await buy('prod_al30_tier2', mine.id)).toMatchObject({
      status: 400,
      message: BILLING_MESSAGES.wrongLine('AL30 Tier 2', 'al30'),
    });
    expect(await buy('prod_sd1_tier2', mine.id, { successUrl: 'https://evil.example/thanks' })).toMatchObject({
      status: 400,
      message: BILLING_MESSAGES.returnElsewhere,
    });
    expect(await tierOf(mine.id)).toBeUndefined();
  });
});
