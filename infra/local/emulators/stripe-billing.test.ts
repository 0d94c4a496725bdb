import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { createStripeClient } from '../../../functions/_shared/billing/stripe-client';
import { CELLULAR_PRODUCT_ID, DEMO_CATALOGUE, seedDemoCatalogue } from '../demo-catalogue';
import { LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET, type StripeEmulator, startStripe } from './stripe';

/**
 * The local Stripe server's billing, driven only through the real `stripe` SDK (as the product drives it) and plain
 * HTTP for the pages Stripe hosts; webhooks received by a small endpoint and verified with the SDK.
 */

interface Received {
  raw: string;
  signature: string;
  event: Stripe.Event;
}

let dataDir: string;
let server: StripeEmulator;
let stripe: Stripe;
let endpoint: Server;
const received: Received[] = [];
/** How many times the endpoint should still answer 500 before it accepts (to see retries). */
let failNext = 0;

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failNext > 0) {
        failNext -= 1;
        response.writeHead(500).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const signature = String(request.headers['stripe-signature']);
      try {
        // The handler's own check: the SDK verifies the signature on the raw body.
        const event = stripe.webhooks.constructEvent(raw, signature, LOCAL_STRIPE_WEBHOOK_SECRET);
        received.push({ raw, signature, event });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  dataDir = await mkdtemp(path.join(tmpdir(), 'stripe-billing-'));
  server = await startStripe({
    port: 0,
    dataDir,
    webhookUrl: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks/stripe`,
    webhookRetryDelaysMs: [20, 40, 80],
  });
  stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, server.url);
  await seedDemoCatalogue(stripe);
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;

const priceOf = async (lookupKey: string) => {
  const price = (await stripe.prices.list({ lookup_keys: [lookupKey] })).data[0];
  if (!price) throw new Error(`No price ${lookupKey}`);
  return price;
};

/** The events the endpoint verified, of one type, about one object. */
const eventsFor = async (type: string, objectId: string) => {
  await server.webhooksIdle();
  return received.filter((r) => r.event.type === type && (r.event.data.object as { id: string }).id === objectId);
};

/** Creates a session and pays it on the hosted page with the card; answers the session and the page's response. */
const checkout = async (
  params: Partial<Stripe.Checkout.SessionCreateParams> & { line_items: Stripe.Checkout.SessionCreateParams.LineItem[] },
  card = '4242 4242 4242 4242',
) => {
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    success_url: 'http://localhost:5173/billing/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:5173/billing/cancel',
    ...params,
  });
  const response = await fetch(session.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card }).toString(),
    redirect: 'manual',
  });
  return { session, response };
};

const itemPeriod = (subscription: Stripe.Subscription) => {
  const item = subscription.items.data[0]!;
  return { start: item.current_period_start, end: item.current_period_end };
};

describe('catalogue', () => {
  it('is seeded once: a second run adds nothing', async () => {
    const before = await stripe.products.list({ limit: 100 });
    await seedDemoCatalogue(stripe);
    const after = await stripe.products.list({ limit: 100 });
    expect(after.data.map((p) => p.id).sort()).toEqual(before.data.map((p) => p.id).sort());
    expect(after.data).toHaveLength(12);
    expect((await stripe.prices.list({ limit: 100 })).data).toHaveLength(23);
  });

  it('has a product per line and tier with its metadata and a monthly default price, and the cellular service', async () => {
    const al30Tier3 = await stripe.products.retrieve('prod_al30_tier3');
    expect(al30Tier3).toMatchObject({
      name: 'AL30 Tier 3',
      metadata: { productLine: 'al30', tier: 'tier3' },
      active: true,
    });
    const prices = await stripe.prices.list({ product: al30Tier3.id });
    expect(prices.data.map((p) => [p.recurring?.interval, p.unit_amount, p.currency]).sort()).toEqual([
      ['month', 2_500, 'usd'],
      ['year', 25_000, 'usd'],
    ]);
    const monthly = await stripe.prices.retrieve(al30Tier3.default_price as string);
    expect(monthly).toMatchObject({ recurring: { interval: 'month', interval_count: 1 }, type: 'recurring' });
    const cellular = await stripe.products.search({ query: "name~'ellular data service' AND active:'true'" });
    expect(cellular.data.map((p) => p.id)).toEqual([CELLULAR_PRODUCT_ID]);
    expect((await stripe.prices.list({ product: CELLULAR_PRODUCT_ID })).data).toHaveLength(1);
  });

  it('searches products by name, metadata and active, and pages the list', async () => {
    const tier2 = await stripe.products.search({ query: "name~'Tier 2'", limit: 100 });
    expect(tier2.data.map((p) => p.name).sort()).toEqual(['AL30 Tier 2', 'AL60 Tier 2', 'AL80 Tier 2', 'SD1 Tier 2']);
    const sd1 = await stripe.products.search({ query: "metadata['productLine']:'sd1'" });
    expect(sd1.data.map((p) => p.name).sort()).toEqual(['SD1 Tier 1', 'SD1 Tier 2']);
    const archived = await stripe.products.create({ name: 'Old plan', active: false });
    expect((await stripe.products.search({ query: "active:'false'" })).data.map((p) => p.id)).toEqual([archived.id]);
    const all: string[] = [];
    for await (const product of stripe.products.list({ active: true, limit: 5 })) all.push(product.id);
    expect(all).toHaveLength(DEMO_CATALOGUE.length);
    expect(all).not.toContain(archived.id);
  });

  it('creates one-off and every-N-months prices and refuses a bad interval', async () => {
    const product = await stripe.products.create({ name: 'Install', metadata: { kind: 'service' } });
    const once = await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 4_900 });
    expect(once).toMatchObject({ type: 'one_time', recurring: null, unit_amount: 4_900 });
    const quarterly = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1_000,
      recurring: { interval: 'month', interval_count: 3 },
    });
    expect(quarterly.recurring).toMatchObject({ interval: 'month', interval_count: 3 });
    const error = await stripe.prices
      .create({ product: product.id, currency: 'usd', unit_amount: 1, recurring: { interval: 'fortnight' as 'day' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400, param: 'recurring[interval]' });
  });
});

describe('checkout with the hosted page', () => {
  it('pays with 4242: one subscription, a paid invoice, the session complete, signed webhooks, a 303 to success', async () => {
    const customer = await stripe.customers.create({ email: unique('buyer') });
    const tier2 = await priceOf('sd1_tier2_month');
    const cellular = await priceOf('cellular_data_service_month');
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [
        { price: tier2.id, quantity: 1 },
        { price: cellular.id, quantity: 1 },
      ],
      success_url: 'http://localhost:5173/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:5173/billing/cancel',
      metadata: { userId: 'u-1' },
      subscription_data: { metadata: { deviceId: 'device-42' } },
    });
    expect(session).toMatchObject({ status: 'open', payment_status: 'unpaid', amount_total: 2_300, currency: 'usd' });
    expect(session.url).toBe(`${server.url}/checkout/${session.id}`);

    const page = await fetch(session.url!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('SD1 Tier 2');
    expect(html).toContain('Cellular data service');
    expect(html).toContain('$23.00');
    expect(html).toMatch(/<label for="card">Card number<\/label>/);
    expect(html).toContain('href="http://localhost:5173/billing/cancel"');

    const paid = await fetch(session.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card=4242+4242+4242+4242',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://localhost:5173/billing/success?session_id=${session.id}`);

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', customer: customer.id });
    expect(done.line_items?.data.map((l) => l.price?.id)).toEqual([tier2.id, cellular.id]);

    const subscription = await stripe.subscriptions.retrieve(done.subscription as string, {
      expand: ['latest_invoice', 'items.data.price.product'],
    });
    expect(subscription).toMatchObject({
      status: 'active',
      customer: customer.id,
      metadata: { deviceId: 'device-42' },
    });
    expect(subscription.items.data.map((i) => (i.price.product as Stripe.Product).name)).toEqual([
      'SD1 Tier 2',
      'Cellular data service',
    ]);
    const { start, end } = itemPeriod(subscription);
    const next = new Date(start * 1000);
    next.setUTCMonth(next.getUTCMonth() + 1);
    // One calendar month (clamped on the 29th–31st), in seconds as Stripe sends it.
    expect(end - start).toBeGreaterThanOrEqual(28 * 86_400);
    expect(end - start).toBeLessThanOrEqual(31 * 86_400);
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 2_300,
      billing_reason: 'subscription_create',
      number: expect.stringMatching(/^[A-Z0-9]{8}-0001$/),
      hosted_invoice_url: `${server.url}/invoices/${invoice.id}`,
      parent: { subscription_details: { subscription: subscription.id, metadata: { deviceId: 'device-42' } } },
    });
    const invoicePage = await fetch(invoice.hosted_invoice_url!);
    expect(invoicePage.status).toBe(200);
    const invoiceHtml = await invoicePage.text();
    expect(invoiceHtml).toContain(invoice.number!);
    expect(invoiceHtml).toContain('$23.00');
    expect((await stripe.invoices.list({ customer: customer.id })).data.map((i) => i.id)).toEqual([invoice.id]);
    expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((i) => i.id)).toEqual([invoice.id]);

    const byDevice = await stripe.subscriptions.search({ query: "metadata['deviceId']:'device-42'" });
    expect(byDevice.data.map((s) => s.id)).toEqual([subscription.id]);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'active' })).data).toHaveLength(1);

    expect(await eventsFor('checkout.session.completed', session.id)).toHaveLength(1);
    const [created] = await eventsFor('customer.subscription.created', subscription.id);
    expect(created?.event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: expect.any(Number),
    });
    expect(await eventsFor('invoice.paid', invoice.id)).toHaveLength(1);
    // The same event is readable through the API, as a handler re-reads what it was sent.
    expect((await stripe.events.retrieve(created!.event.id)).type).toBe('customer.subscription.created');
  });

  it('signs exactly as Stripe: a tampered body or another secret fails the SDK check', async () => {
    await server.webhooksIdle();
    const { raw, signature } = received[0]!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => stripe.webhooks.constructEvent(raw, signature, LOCAL_STRIPE_WEBHOOK_SECRET)).not.toThrow();
    const tampered = raw.replace('"livemode": false', '"livemode": true');
    expect(tampered).not.toBe(raw);
    expect(() => stripe.webhooks.constructEvent(tampered, signature, LOCAL_STRIPE_WEBHOOK_SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => stripe.webhooks.constructEvent(raw, signature, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const ids = received.map((r) => r.event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declines 4000 0000 0000 0002 on the page and creates nothing', async () => {
    const customer = await stripe.customers.create({ email: unique('declined') });
    const { session, response } = await checkout(
      { customer: customer.id, line_items: [{ price: (await priceOf('al60_tier2_month')).id, quantity: 1 }] },
      '4000 0000 0000 0002',
    );
    expect(response.status).toBe(402);
    const html = await response.text();
    expect(html).toMatch(/<div role="alert"[^>]*>Your card was declined\.<\/div>/);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      subscription: null,
    });
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toEqual([]);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toEqual([]);
    await server.webhooksIdle();
    expect(received.filter((r) => (r.event.data.object as { customer?: string }).customer === customer.id)).toEqual([]);
  });

  it('creates the customer for a session that named only an e-mail, and refuses a second payment', async () => {
    const email = unique('new');
    const { session, response } = await checkout({
      customer_email: email,
      line_items: [{ price: (await priceOf('al80_tier1_year')).id, quantity: 2 }],
    });
    expect(response.status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    const customer = (await stripe.customers.list({ email })).data[0]!;
    expect(done.customer).toBe(customer.id);
    const subscription = await stripe.subscriptions.retrieve(done.subscription as string);
    expect(subscription.items.data[0]).toMatchObject({ quantity: 2, price: { recurring: { interval: 'year' } } });
    const again = await fetch(session.url ?? `${server.url}/checkout/${session.id}`, {
      method: 'POST',
      body: 'card=4242424242424242',
    });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('This checkout session is complete.');
  });

  it('refuses sessions Stripe refuses: mixed intervals, no recurring price, customer and e-mail both', async () => {
    const month = await priceOf('sd1_tier1_month');
    const year = await priceOf('sd1_tier1_year');
    const mixed = await stripe.checkout.sessions
      .create({
        mode: 'subscription',
        success_url: 'http://x/s',
        line_items: [
          { price: month.id, quantity: 1 },
          { price: year.id, quantity: 1 },
        ],
      })
      .catch((e: unknown) => e);
    expect(mixed).toMatchObject({ statusCode: 400, message: expect.stringContaining('same `recurring.interval`') });
    const both = await stripe.checkout.sessions
      .create({
        mode: 'subscription',
        success_url: 'http://x/s',
        customer: (await stripe.customers.create({})).id,
        customer_email: 'a@b.c',
        line_items: [{ price: month.id, quantity: 1 }],
      })
      .catch((e: unknown) => e);
    expect(both).toMatchObject({ statusCode: 400, param: 'customer_email' });
  });
});

describe('subscriptions after checkout', () => {
  const subscribe = async (
    lookupKey: string,
    deviceId: string,
    extra: Partial<Stripe.Checkout.SessionCreateParams> = {},
  ) => {
    const customer = await stripe.customers.create({ email: unique(deviceId) });
    const { session, response } = await checkout({
      customer: customer.id,
      line_items: [{ price: (await priceOf(lookupKey)).id, quantity: 1 }],
      subscription_data: { metadata: { deviceId } },
      ...extra,
    });
    expect(response.status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    return { customer, subscription: await stripe.subscriptions.retrieve(done.subscription as string) };
  };

  it('prorates an upgrade: credit for the unused time of the old price, charge for the new, invoiced at once', async () => {
    const { subscription } = await subscribe('sd1_tier1_month', 'upgrade-1');
    const tier2 = await priceOf('sd1_tier2_month');
    const { start, end } = itemPeriod(subscription);
    const halfway = start + Math.floor((end - start) / 2);
    const fraction = (end - halfway) / (end - start);
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]!.id, price: tier2.id }],
      proration_behavior: 'always_invoice',
      proration_date: halfway,
      expand: ['latest_invoice'],
    });
    expect(updated.items.data[0]!.price.id).toBe(tier2.id);
    expect(itemPeriod(updated)).toEqual({ start, end });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    const expected = Math.round(1_900 * fraction) - Math.round(900 * fraction);
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: expected });
    expect(invoice.lines.data.map((l) => [l.amount, l.parent?.subscription_item_details?.proration])).toEqual([
      [-Math.round(900 * fraction), true],
      [Math.round(1_900 * fraction), true],
    ]);
    const [updatedEvent] = await eventsFor('customer.subscription.updated', subscription.id);
    expect(updatedEvent?.event.data.previous_attributes).toHaveProperty('items');
    expect(await eventsFor('invoice.paid', invoice.id)).toHaveLength(1);
  });

  it('bills create_prorations on the next renewal, and none not at all', async () => {
    const { subscription } = await subscribe('al30_tier1_month', 'upgrade-2');
    const itemId = subscription.items.data[0]!.id;
    await stripe.subscriptions.update(subscription.id, {
      items: [{ id: itemId, price: (await priceOf('al30_tier3_month')).id }],
    });
    expect((await stripe.invoices.list({ subscription: subscription.id })).data).toHaveLength(1);
    const renewed = await postTest(`/_test/subscriptions/${subscription.id}/advance`);
    expect(renewed.status).toBe('active');
    const invoice = await stripe.invoices.retrieve(renewed.latest_invoice);
    expect(invoice.billing_reason).toBe('subscription_cycle');
    const proration = invoice.lines.data.filter((l) => l.parent?.subscription_item_details?.proration);
    expect(proration).toHaveLength(2);
    // Just after checkout almost the whole period was left: about the difference of the two monthly prices.
    const prorated = proration.reduce((sum, l) => sum + l.amount, 0);
    expect(prorated).toBeGreaterThan(1_990);
    expect(prorated).toBeLessThanOrEqual(2_000);
    expect(invoice.amount_paid).toBe(2_500 + prorated);
    const noProration = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: itemId, price: (await priceOf('al30_tier2_month')).id }],
      proration_behavior: 'none',
    });
    expect(noProration.latest_invoice).toBe(invoice.id);
  });

  it('cancels at period end: still active until the period is advanced, then canceled with a deleted event', async () => {
    const { customer, subscription } = await subscribe('sd1_tier2_month', 'cancel-1');
    const entitled = await stripe.entitlements.activeEntitlements.list({ customer: customer.id });
    expect(entitled.data.map((e) => e.lookup_key)).toEqual(['tier2']);
    const pending = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(pending).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: itemPeriod(subscription).end,
    });
    expect((await stripe.entitlements.activeEntitlements.list({ customer: customer.id })).data).toHaveLength(1);
    const ended = await postTest(`/_test/subscriptions/${subscription.id}/advance`);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: expect.any(Number) });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    expect(await eventsFor('customer.subscription.deleted', subscription.id)).toHaveLength(1);
    expect((await stripe.entitlements.activeEntitlements.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'canceled' })).data).toHaveLength(1);
  });

  it('cancels at once with DELETE, and a second cancel is refused', async () => {
    const { subscription } = await subscribe('al60_tier1_month', 'cancel-2');
    expect((await stripe.subscriptions.cancel(subscription.id)).status).toBe('canceled');
    expect(await eventsFor('customer.subscription.deleted', subscription.id)).toHaveLength(1);
    expect(await stripe.subscriptions.cancel(subscription.id).catch((e: unknown) => e)).toMatchObject({
      statusCode: 400,
    });
  });

  it('entitlements follow the active subscriptions: one feature per tier', async () => {
    const { customer } = await subscribe('al30_tier3_month', 'ent-1');
    const second = await checkout({
      customer: customer.id,
      line_items: [{ price: (await priceOf('cellular_data_service_month')).id, quantity: 1 }],
    });
    expect(second.response.status).toBe(303);
    const list = await stripe.entitlements.activeEntitlements.list({ customer: customer.id, expand: ['data.feature'] });
    expect(list.data.map((e) => e.lookup_key).sort()).toEqual([CELLULAR_PRODUCT_ID, 'tier3']);
    expect(list.data.map((e) => (e.feature as Stripe.Entitlements.Feature).object)).toEqual([
      'entitlements.feature',
      'entitlements.feature',
    ]);
  });

  it('a failed payment makes the subscription past due with invoice.payment_failed; a trial warns before it ends', async () => {
    const { subscription } = await subscribe('sd1_tier1_month', 'fail-1');
    const invoice = await postTest(`/_test/subscriptions/${subscription.id}/payment_failed`);
    expect(invoice).toMatchObject({ status: 'open', amount_paid: 0, amount_due: 900 });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    expect(await eventsFor('invoice.payment_failed', invoice.id)).toHaveLength(1);

    const trial = await subscribe('sd1_tier2_month', 'trial-1', {
      subscription_data: { metadata: { deviceId: 'trial-1' }, trial_period_days: 14 },
    });
    expect(trial.subscription).toMatchObject({ status: 'trialing', trial_end: expect.any(Number) });
    expect(trial.subscription.trial_end! - trial.subscription.trial_start!).toBe(14 * 86_400);
    const trialInvoice = await stripe.invoices.retrieve(trial.subscription.latest_invoice as string);
    expect(trialInvoice).toMatchObject({ amount_paid: 0, status: 'paid' });
    await postTest(`/_test/subscriptions/${trial.subscription.id}/trial_will_end`);
    expect(await eventsFor('customer.subscription.trial_will_end', trial.subscription.id)).toHaveLength(1);
    const active = await postTest(`/_test/subscriptions/${trial.subscription.id}/advance`);
    expect(active.status).toBe('active');
    expect((await stripe.invoices.retrieve(active.latest_invoice)).amount_paid).toBe(1_900);
  });

  it('takes any of the eight statuses from the test route', async () => {
    const { subscription } = await subscribe('al80_tier2_month', 'status-1');
    for (const status of ['incomplete', 'incomplete_expired', 'unpaid', 'paused', 'past_due', 'trialing', 'active']) {
      expect((await postTest(`/_test/subscriptions/${subscription.id}/status`, { status })).status).toBe(status);
    }
    const bad = await fetch(`${server.url}/_test/subscriptions/${subscription.id}/status`, {
      method: 'POST',
      body: 'status=sleeping',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.status).toBe(400);
  });

  it('serves a billing portal session: the customer subscriptions and a way back', async () => {
    const { customer } = await subscribe('al30_tier2_month', 'portal-1');
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://localhost:5173/profile',
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      url: `${server.url}/portal/${portal.id}`,
    });
    const page = await fetch(portal.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('AL30 Tier 2');
    expect(html).toContain('device portal-1');
    expect(html).toContain('href="http://localhost:5173/profile"');
  });
});

describe('webhook delivery', () => {
  it('retries a failed delivery without holding up the API answer', async () => {
    await server.webhooksIdle();
    failNext = 2;
    const customer = await stripe.customers.create({ email: unique('retry') });
    const updated = await stripe.customers.update(customer.id, { name: 'Retried' });
    expect(updated.name).toBe('Retried');
    const events = await eventsFor('customer.updated', customer.id);
    expect(events).toHaveLength(1);
    const sent = server.sentEvents().find((s) => s.event.id === events[0]!.event.id)!;
    expect(sent.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(sent.state).toBe('delivered');
    const listed = await (await fetch(`${server.url}/_test/events`)).json();
    expect(listed.data.some((s: { event: { id: string } }) => s.event.id === sent.event.id)).toBe(true);
  });

  it('answers unknown routes in Stripe error shape, saying what exists', async () => {
    const response = await fetch(`${server.url}/v1/payouts`, {
      headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` },
    });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({
      error: { type: 'api_error', message: expect.stringContaining('checkout sessions in subscription mode') },
    });
  });
});

describe('persistence', () => {
  it('keeps catalogue, subscriptions and invoices across a restart, with the hosted URLs on the new port', async () => {
    const subscriptions = await stripe.subscriptions.list({ status: 'all', limit: 100 });
    const invoice = (await stripe.invoices.list({ limit: 1 })).data[0]!;
    await server.stop();
    server = await startStripe({ port: 0, dataDir });
    expect(server.fresh).toBe(false);
    stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, server.url);
    expect((await stripe.subscriptions.list({ status: 'all', limit: 100 })).data).toEqual(subscriptions.data);
    const again = await stripe.invoices.retrieve(invoice.id);
    expect(again.hosted_invoice_url).toBe(`${server.url}/invoices/${invoice.id}`);
    expect((await fetch(again.hosted_invoice_url!)).status).toBe(200);
    const products = await stripe.products.list({ limit: 100 });
    await seedDemoCatalogue(stripe);
    expect((await stripe.products.list({ limit: 100 })).data).toHaveLength(products.data.length);
  });
});

/** Calls a test-only route of the local server (not Stripe's API, so plain HTTP). */
async function postTest(route: string, form: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}
