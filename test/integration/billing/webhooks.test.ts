import { createHmac } from 'node:crypto';
import { INVALID_SIGNATURE } from '../../../functions/customer/domain/webhooks';
import { LOCAL_STRIPE_WEBHOOK_SECRET } from '../../../infra/local/emulators/stripe';
import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { checkoutSession, payAt, stripe, subscriptionRecord, until } from '../../support/billing';
import { mailsTo } from '../../support/mail';
import { bannersAbout } from '../../support/notifications';
import { type FreshUser, freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, stack } from '../../support/stack';

const webhookUrl = () => `${areaUrl('customer')}/stripe-webhook`;

/** A body signed as Stripe signs it, at time `t` (seconds), with `secret`. */
const signed = (body: string, t = Math.floor(Date.now() / 1000), secret = LOCAL_STRIPE_WEBHOOK_SECRET) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

const post = (body: string, signature?: string) =>
  fetch(webhookUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body,
  });

const readOld = (person: FreshUser, deviceId: string, daysAgo: number) =>
  apiAs('sensor-data', person.token).listReadings({
    params: { id: deviceId },
    query: { from: Date.now() - daysAgo * DAY_MS, to: Date.now() - (daysAgo - 1) * DAY_MS },
  });

describe('billing: Stripe webhooks record each device’s subscription', () => {
  it('checkout → paid with the test card → signed webhook → the device’s history window widens on the next read', async () => {
    const person = await freshUser({ prefix: 'bill-buyer' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    expect((await apiRejection(readOld(person, device.id, 200))).status).toBe(403);

    const session = await checkoutSession(person, device.id, 'prod_sd1_tier2');
    const paid = await payAt(session.url!, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    const saved = await until(
      () => subscriptionRecord(device.id),
      (item) => item?.status === 'active',
      'the subscription record',
    );
    expect(saved).toMatchObject({
      deviceId: device.id,
      tier: 'tier2',
      productId: 'prod_sd1_tier2',
      productName: 'SD1 Tier 2',
      amount: 1_900,
      interval: 'month',
      intervalCount: 1,
      cancelAtPeriodEnd: false,
      invoiceNumber: expect.any(String),
      invoiceUrl: expect.stringContaining('/invoices/'),
    });
    // Spec §9: Stripe's seconds become milliseconds.
    expect(saved!.currentPeriodStart).toBeGreaterThan(Date.now() - DAY_MS);
    expect(saved!.currentPeriodEnd - saved!.currentPeriodStart).toBeGreaterThan(27 * DAY_MS);
    await expect(readOld(person, device.id, 200)).resolves.toMatchObject({ items: expect.any(Array) });

    // Cancelled at period end: still Tier 2 until then; when the period ends, the base tier again.
    const subscription = await stripe().subscriptions.update(saved!.id, { cancel_at_period_end: true });
    await until(
      () => subscriptionRecord(device.id),
      (item) => item?.cancelAtPeriodEnd === true,
      'cancel at period end',
    );
    await expect(readOld(person, device.id, 200)).resolves.toBeDefined();
    await fetch(`${stack().endpoints.stripe}/_test/subscriptions/${subscription.id}/advance`, { method: 'POST' });
    await until(
      () => subscriptionRecord(device.id),
      (item) => item?.status === 'canceled',
      'the cancellation',
    );
    expect((await apiRejection(readOld(person, device.id, 200))).status).toBe(403);
  });

  it('a failed payment keeps the tier while Stripe retries and tells the buyer, once, by banner and e-mail', async () => {
    const person = await freshUser({ prefix: 'bill-failed' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await payAt((await checkoutSession(person, device.id, 'prod_sd1_tier2')).url!, '4242 4242 4242 4242');
    const { id } = (await until(
      () => subscriptionRecord(device.id),
      (item) => item?.status === 'active',
      'the record',
    ))!;
    await fetch(`${stack().endpoints.stripe}/_test/subscriptions/${id}/payment_failed`, { method: 'POST' });
    await until(
      () => subscriptionRecord(device.id),
      (item) => item?.status === 'past_due',
      'past due',
    );
    await expect(readOld(person, device.id, 200)).resolves.toBeDefined();
    const notices = await bannersAbout(person.id, 'Payment failed for SD1 Tier 2', 1);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice).toMatchObject({ topic: 'billing', requireInteraction: true });
    expect(notice!.body).toContain(`/devices/${device.id}`);
    expect(notice!.body).toContain('/invoices/');
    const [mail] = await mailsTo(person.email, 1, 15_000);
    expect(mail!.subject).toBe('Payment failed for SD1 Tier 2');
  });

  it('a declined card changes nothing', async () => {
    const person = await freshUser({ prefix: 'bill-declined' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const session = await checkoutSession(person, device.id, 'prod_sd1_tier2');
    const declined = await payAt(session.url!, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await subscriptionRecord(device.id)).toBeUndefined();
  });

  it('refuses a body it did not sign, another secret and a replay older than 300 s; acknowledges a duplicate once', async () => {
    const event = JSON.stringify({
      id: `evt_test_${Date.now()}`,
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_x', object: 'customer' } },
    });
    for (const [body, signature] of [
      [event, undefined],
      [event.replace('cus_x', 'cus_y'), signed(event)],
      [event, signed(event, undefined, 'whsec_someone_else')],
      [event, signed(event, Math.floor(Date.now() / 1000) - 301)],
      // From the future beyond the same tolerance: no fresher than a replay (audit).
      [event, signed(event, Math.floor(Date.now() / 1000) + 301)],
      [event, signed(event, Math.floor(Date.now() / 1000) + 86_400)],
    ] as const) {
      const refused = await post(body, signature);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toBe(INVALID_SIGNATURE);
    }
    const first = await post(event, signed(event));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const again = await post(event, signed(event));
    expect(await again.json()).toEqual({ received: true, duplicate: true });
  });

  it('acknowledges a well-signed event it cannot apply (no data, a subscription Stripe does not know): never a 500', async () => {
    const at = Math.floor(Date.now() / 1000);
    const stamp = `${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    const events = [
      { id: `evt_nodata_${stamp}`, object: 'event', type: 'customer.subscription.updated', created: at },
      {
        id: `evt_gone_${stamp}`,
        object: 'event',
        type: 'customer.subscription.deleted',
        created: at,
        data: { object: { id: `sub_nobody_${stamp}`, object: 'subscription' } },
      },
      {
        id: `evt_invoice_${stamp}`,
        object: 'event',
        type: 'invoice.paid',
        created: at,
        data: { object: { id: 'in_x', object: 'invoice', subscription: `sub_nobody_${stamp}` } },
      },
    ];
    for (const event of events) {
      const body = JSON.stringify(event);
      const first = await post(body, signed(body));
      expect([event.type, first.status, await first.json()]).toEqual([event.type, 200, { received: true }]);
      // Acknowledged once: Stripe's retry of it is a duplicate.
      expect(await (await post(body, signed(body))).json()).toEqual({ received: true, duplicate: true });
    }
  });

  it('an old event delivered late converges on what Stripe holds now', async () => {
    const person = await freshUser({ prefix: 'bill-order' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const session = await checkoutSession(person, device.id, 'prod_sd1_tier1');
    await payAt(session.url!, '4242 4242 4242 4242');
    const first = await until(
      () => subscriptionRecord(device.id),
      (item) => item?.tier === 'tier1',
      'Tier 1',
    );
    // An upgrade to Tier 2 (prorated), then the subscription's creation event arrives again, late and reordered.
    const subscription = await stripe().subscriptions.retrieve(first!.id);
    const tier2 = await stripe().products.retrieve('prod_sd1_tier2');
    await stripe().subscriptions.update(first!.id, {
      items: [{ id: subscription.items.data[0]!.id, price: tier2.default_price as string }],
      proration_behavior: 'always_invoice',
    });
    await until(
      () => subscriptionRecord(device.id),
      (item) => item?.tier === 'tier2',
      'Tier 2',
    );
    const stale = JSON.stringify({
      id: `evt_stale_${Date.now()}`,
      object: 'event',
      type: 'customer.subscription.created',
      created: Math.floor(Date.now() / 1000) - 120,
      data: { object: { ...subscription, object: 'subscription' } },
    });
    expect((await post(stale, signed(stale))).status).toBe(200);
    expect(await subscriptionRecord(device.id)).toMatchObject({ tier: 'tier2', planId: tier2.default_price });
    // The upgrade was prorated: an invoice for the rest of the period was paid at once.
    const invoices = await stripe().invoices.list({ subscription: first!.id });
    expect(
      invoices.data.some((invoice) => invoice.billing_reason === 'subscription_update' && invoice.amount_paid > 0),
    ).toBe(true);
  });
});
