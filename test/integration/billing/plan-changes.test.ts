import type Stripe from 'stripe';
import { deviceMetadata } from '../../../functions/_shared/billing/subscription-devices';
import { BILLING_MESSAGES } from '../../../functions/api/domain/subscriptions';
import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { buyTier, payAt, stripe, subscriptionRecord, until } from '../../support/billing';
import { type FreshUser, freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, stack, tokenOf } from '../../support/stack';

/**
 * Changing a device's plan from the app (docs/billing.md, "Changing a plan"), through the gateway, the api area,
 * the real `stripe` SDK and the local Stripe server, whose signed webhooks write the device's record.
 */

const billing = (token: string) => apiAs('api', token);

/** A day of readings `daysAgo` days back: readable only while the device's tier reaches that far. */
const readOld = (token: string, deviceId: string, daysAgo: number) =>
  apiAs('sensor-data', token).listReadings({
    params: { id: deviceId },
    query: { from: Date.now() - daysAgo * DAY_MS, to: Date.now() - (daysAgo - 1) * DAY_MS },
  });

const advance = async (subscriptionId: string) => {
  const response = await fetch(`${stack().endpoints.stripe}/_test/subscriptions/${subscriptionId}/advance`, {
    method: 'POST',
  });
  expect(response.status).toBe(200);
};

const customerOf = async (person: FreshUser) =>
  (await billing(person.token).customersSearchByEmail({ body: { email: person.email } })).items[0]!.id;

/** A person with an SD1 device of their own and the tier bought for it. */
const withPlan = async (prefix: string, productId: string) => {
  const person = await freshUser({ prefix });
  const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
  const subscriptionId = await buyTier(person, device.id, productId);
  return { person, deviceId: device.id, subscriptionId };
};

describe('billing: changing a device plan', () => {
  it('an upgrade applies now: a proration invoice for the difference, and the higher tier on the next read', async () => {
    const { person, deviceId, subscriptionId } = await withPlan('plan-up', 'prod_sd1_tier1');
    // Tier 1 shows 30 days: 200 days back is locked.
    expect((await apiRejection(readOld(person.token, deviceId, 200))).status).toBe(403);

    const changed = await billing(person.token).subscriptionsChangeTier({
      body: { deviceId, productId: 'prod_sd1_tier2' },
    });
    expect(changed).toMatchObject({ id: subscriptionId, tier: 'tier2', productId: 'prod_sd1_tier2', amount: 1_900 });
    expect(changed.scheduledTier).toBeUndefined();

    const subscription = await stripe().subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] });
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid' });
    const lines = invoice.lines.data.map((line) => ({
      amount: line.amount,
      proration: line.parent?.subscription_item_details?.proration,
    }));
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.proration === true)).toBe(true);
    const [credit, charge] = [lines[0]!.amount, lines[1]!.amount];
    // The unused Tier 1 time is credited and the rest of the period charged at Tier 2, for the same fraction.
    expect(credit).toBeLessThan(0);
    expect(Math.abs(charge / 1_900 - -credit / 900)).toBeLessThan(0.002);
    expect(invoice.amount_paid).toBe(charge + credit);
    // Bought a moment ago: nearly the whole month remains, so nearly the whole $10.00 difference.
    expect(invoice.amount_paid).toBeGreaterThan(990);
    expect(invoice.amount_paid).toBeLessThanOrEqual(1_000);

    await until(
      () => subscriptionRecord(deviceId),
      (record) => record?.tier === 'tier2',
      'the record of the upgrade',
    );
    await expect(readOld(person.token, deviceId, 200)).resolves.toBeDefined();

    // The person's invoices: the proration first, then the first month's.
    const customerId = await customerOf(person);
    const listed = await billing(person.token).invoicesListByCustomer({ body: { customerId }, query: { limit: 10 } });
    expect(listed.items.map((item) => [item.id, item.amountPaid, item.status])).toEqual([
      [invoice.id, invoice.amount_paid, 'paid'],
      [expect.any(String), 900, 'paid'],
    ]);
    expect(listed.nextCursor).toBeUndefined();
    const firstPage = await billing(person.token).invoicesListByCustomer({ body: { customerId }, query: { limit: 1 } });
    expect(firstPage.items.map((item) => item.id)).toEqual([invoice.id]);
    const secondPage = await billing(person.token).invoicesListByCustomer({
      body: { customerId },
      query: { limit: 1, cursor: firstPage.nextCursor! },
    });
    expect(secondPage.items.map((item) => item.id)).toEqual([listed.items[1]!.id]);
  });

  it('a downgrade waits for the period end: the record says what comes when; past the end the lower tier applies', async () => {
    const { person, deviceId, subscriptionId } = await withPlan('plan-down', 'prod_sd1_tier2');
    const invoicesBefore = (await stripe().invoices.list({ subscription: subscriptionId })).data.length;

    const changed = await billing(person.token).subscriptionsChangeTier({
      body: { deviceId, productId: 'prod_sd1_tier1' },
    });
    expect(changed).toMatchObject({
      tier: 'tier2',
      productId: 'prod_sd1_tier2',
      scheduledTier: 'tier1',
      scheduledProductId: 'prod_sd1_tier1',
      scheduledProductName: 'SD1 Tier 1',
      scheduledAt: changed.currentPeriodEnd,
      cancelAtPeriodEnd: false,
    });
    // Nothing is billed now.
    expect((await stripe().invoices.list({ subscription: subscriptionId })).data).toHaveLength(invoicesBefore);

    const scheduled = await until(
      () => subscriptionRecord(deviceId),
      (record) => record?.scheduledTier === 'tier1',
      'the scheduled downgrade on the record',
    );
    expect(scheduled).toMatchObject({
      tier: 'tier2',
      scheduledProductName: 'SD1 Tier 1',
      scheduledAt: scheduled!.currentPeriodEnd,
    });
    await expect(readOld(person.token, deviceId, 200)).resolves.toBeDefined();

    await advance(subscriptionId);
    const after = await until(
      () => subscriptionRecord(deviceId),
      (record) => record?.tier === 'tier1',
      'the lower tier after the period end',
    );
    expect(after).toMatchObject({ status: 'active', productId: 'prod_sd1_tier1', amount: 900 });
    expect(after!.scheduledTier).toBeUndefined();
    // The history window narrows to Tier 1's 30 days.
    expect((await apiRejection(readOld(person.token, deviceId, 200))).status).toBe(403);
    await expect(readOld(person.token, deviceId, 20)).resolves.toBeDefined();
  });

  it('cancels at period end and resumes; undoes a scheduled downgrade; refuses an undo with nothing pending', async () => {
    const { person, deviceId, subscriptionId } = await withPlan('plan-cancel', 'prod_sd1_tier2');
    const api = billing(person.token);

    expect(await api.subscriptionsCancel({ body: { deviceId } })).toMatchObject({
      id: subscriptionId,
      status: 'active',
      cancelAtPeriodEnd: true,
      tier: 'tier2',
    });
    await until(
      () => subscriptionRecord(deviceId),
      (r) => r?.cancelAtPeriodEnd === true,
      'the pending cancellation',
    );
    // The tier stays until the period ends.
    await expect(readOld(person.token, deviceId, 200)).resolves.toBeDefined();

    expect(await api.subscriptionsResume({ body: { deviceId } })).toMatchObject({ cancelAtPeriodEnd: false });
    await until(
      () => subscriptionRecord(deviceId),
      (r) => r?.cancelAtPeriodEnd === false,
      'the resumed plan',
    );

    await api.subscriptionsChangeTier({ body: { deviceId, productId: 'prod_sd1_tier1' } });
    await until(
      () => subscriptionRecord(deviceId),
      (r) => r?.scheduledTier === 'tier1',
      'the downgrade',
    );
    // Cancelling drops the downgrade (Stripe holds one or the other).
    expect(await api.subscriptionsCancel({ body: { deviceId } })).toMatchObject({ cancelAtPeriodEnd: true });
    const cancelling = await until(
      () => subscriptionRecord(deviceId),
      (r) => r?.cancelAtPeriodEnd === true && r?.scheduledTier === undefined,
      'the cancellation in place of the downgrade',
    );
    expect(cancelling!.tier).toBe('tier2');

    // Choosing the lower tier again replaces the cancellation; "Keep Tier 2" undoes it.
    await api.subscriptionsChangeTier({ body: { deviceId, productId: 'prod_sd1_tier1' } });
    const kept = await api.subscriptionsResume({ body: { deviceId } });
    expect(kept).toMatchObject({ tier: 'tier2', cancelAtPeriodEnd: false });
    expect(kept.scheduledTier).toBeUndefined();
    await until(
      () => subscriptionRecord(deviceId),
      (r) => r?.scheduledTier === undefined && r?.cancelAtPeriodEnd === false,
      'the plan kept as it is',
    );
    expect((await stripe().subscriptions.retrieve(subscriptionId)).schedule).toBeNull();

    const nothing = await apiRejection(api.subscriptionsResume({ body: { deviceId } }));
    expect(nothing).toMatchObject({ status: 409, message: BILLING_MESSAGES.nothingToUndo });
    const same = await apiRejection(api.subscriptionsChangeTier({ body: { deviceId, productId: 'prod_sd1_tier2' } }));
    expect(same).toMatchObject({ status: 409, message: BILLING_MESSAGES.alreadyOnTier('SD1 Tier 2') });
    const otherLine = await apiRejection(
      api.subscriptionsChangeTier({ body: { deviceId, productId: 'prod_al30_tier3' } }),
    );
    expect(otherLine).toMatchObject({ status: 400, message: BILLING_MESSAGES.wrongLine('AL30 Tier 3', 'al30') });
  });

  it("refuses another person's device (403), a device without a plan (404) and a plan for several devices (409); staff may change any", async () => {
    const { deviceId } = await withPlan('plan-owner', 'prod_sd1_tier1');
    const stranger = await freshUser({ prefix: 'plan-stranger' });
    for (const call of [
      billing(stranger.token).subscriptionsChangeTier({ body: { deviceId, productId: 'prod_sd1_tier2' } }),
      billing(stranger.token).subscriptionsCancel({ body: { deviceId } }),
      billing(stranger.token).subscriptionsResume({ body: { deviceId } }),
    ]) {
      expect(await apiRejection(call)).toMatchObject({ status: 403, message: BILLING_MESSAGES.notYourPlan(deviceId) });
    }
    const unpaid = await freshDevice({ productLine: 'sd1', ownerToken: stranger.token });
    expect(
      await apiRejection(billing(stranger.token).subscriptionsCancel({ body: { deviceId: unpaid.id } })),
    ).toMatchObject({ status: 404, message: BILLING_MESSAGES.noSubscription });

    const staff = billing(await tokenOf('admin@example.com'));
    expect(await staff.subscriptionsCancel({ body: { deviceId } })).toMatchObject({ cancelAtPeriodEnd: true });

    // One checkout for two devices: one subscription pays for both.
    const buyer = await freshUser({ prefix: 'plan-shared' });
    const [first, second] = await Promise.all([
      freshDevice({ productLine: 'sd1', ownerToken: buyer.token }),
      freshDevice({ productLine: 'sd1', ownerToken: buyer.token }),
    ]);
    const product = await stripe().products.retrieve('prod_sd1_tier1');
    const session = await stripe().checkout.sessions.create({
      mode: 'subscription',
      customer_email: buyer.email,
      line_items: [{ price: product.default_price as string, quantity: 2 }],
      success_url: 'http://web.test/billing/return',
      cancel_url: 'http://web.test/billing/return?cancelled=1',
      subscription_data: {
        metadata: {
          userId: buyer.id,
          ...deviceMetadata([
            { productId: product.id, deviceId: first!.id },
            { productId: product.id, deviceId: second!.id },
          ]),
        },
      },
    });
    expect((await payAt(session.url!, '4242 4242 4242 4242')).status).toBe(303);
    await until(
      () => subscriptionRecord(second!.id),
      (r) => r?.tier === 'tier1',
      'the shared plan',
    );
    const shared = await apiRejection(
      billing(buyer.token).subscriptionsChangeTier({ body: { deviceId: first!.id, productId: 'prod_sd1_tier2' } }),
    );
    expect(shared).toMatchObject({ status: 409, message: BILLING_MESSAGES.sharedSubscription(2) });
  });

  it("lists a person's own invoices, refuses another's customer (403), and staff read any", async () => {
    const { person } = await withPlan('plan-invoices', 'prod_sd1_tier1');
    const customerId = await customerOf(person);
    const own = await billing(person.token).invoicesListByCustomer({ body: { customerId }, query: {} });
    expect(own.items).toHaveLength(1);
    expect(own.items[0]).toMatchObject({
      customerId,
      status: 'paid',
      currency: 'usd',
      amountPaid: 900,
      number: expect.any(String),
      hostedInvoiceUrl: expect.stringContaining('/invoices/'),
    });
    const stranger = await freshUser({ prefix: 'plan-invoices-x' });
    const refused = await apiRejection(
      billing(stranger.token).invoicesListByCustomer({ body: { customerId }, query: {} }),
    );
    expect(refused).toMatchObject({ status: 403, message: BILLING_MESSAGES.notYourCustomer });
    const staff = await billing(await tokenOf('employee@example.com')).invoicesListByCustomer({
      body: { customerId },
      query: {},
    });
    expect(staff.items.map((item) => item.id)).toEqual(own.items.map((item) => item.id));
  });
});
