import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Stripe from 'stripe';
import { createStripeClient } from '../../../functions/_shared/billing/stripe-client';
import { seedDemoCatalogue } from '../demo-catalogue';
import { LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET, type StripeEmulator, startStripe } from './stripe';

/**
 * Subscription schedules on the local Stripe server, driven through the real `stripe` SDK as the product drives a
 * downgrade at period end: made from a subscription, given a second phase, released, and applied when the period
 * ends; webhooks verified by the SDK on a small endpoint.
 */

let dataDir: string;
let server: StripeEmulator;
let stripe: Stripe;
let endpoint: Server;
const received: Stripe.Event[] = [];

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push(
        stripe.webhooks.constructEvent(raw, String(request.headers['stripe-signature']), LOCAL_STRIPE_WEBHOOK_SECRET),
      );
      response.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  dataDir = await mkdtemp(path.join(tmpdir(), 'stripe-schedules-'));
  server = await startStripe({
    port: 0,
    dataDir,
    webhookUrl: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks/stripe`,
    webhookRetryDelaysMs: [20],
  });
  stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, server.url);
  await seedDemoCatalogue(stripe);
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

const priceOf = async (lookupKey: string) => (await stripe.prices.list({ lookup_keys: [lookupKey] })).data[0]!;

const eventsFor = async (type: string, objectId: string) => {
  await server.webhooksIdle();
  return received.filter((e) => e.type === type && (e.data.object as { id: string }).id === objectId);
};

const advance = async (id: string) =>
  (await (await fetch(`${server.url}/_test/subscriptions/${id}/advance`, { method: 'POST' })).json()) as {
    status: string;
    latest_invoice: string;
  };

const subscribe = async (lookupKey: string) => {
  const customer = await stripe.customers.create({ email: `schedule-${Math.random()}@example.com` });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: (await priceOf(lookupKey)).id, quantity: 1 }],
    success_url: 'http://localhost:5173/billing/return',
  });
  const paid = await fetch(session.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: '4242 4242 4242 4242' }).toString(),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  const done = await stripe.checkout.sessions.retrieve(session.id);
  return stripe.subscriptions.retrieve(done.subscription as string);
};

/** The product's downgrade: a schedule from the subscription, then the current price until the period end, then the lower one. */
const scheduleDowngrade = async (subscription: Stripe.Subscription, lowerPrice: string) => {
  const schedule = await stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
  const phase = schedule.phases[0]!;
  return stripe.subscriptionSchedules.update(schedule.id, {
    end_behavior: 'release',
    phases: [
      {
        items: phase.items.map((item) => ({ price: item.price as string, quantity: item.quantity! })),
        start_date: phase.start_date,
        end_date: phase.end_date,
      },
      { items: [{ price: lowerPrice, quantity: 1 }], duration: { interval: 'month', interval_count: 1 } },
    ],
    expand: ['phases.items.price.product'],
  });
};

describe('subscription schedules', () => {
  it('made from a subscription: one phase, the current price until the period ends; the subscription names it', async () => {
    const subscription = await subscribe('sd1_tier2_month');
    const item = subscription.items.data[0]!;
    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    expect(schedule).toMatchObject({
      object: 'subscription_schedule',
      status: 'active',
      end_behavior: 'release',
      subscription: subscription.id,
      customer: subscription.customer,
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
    });
    expect(schedule.phases).toHaveLength(1);
    expect(schedule.phases[0]).toMatchObject({
      start_date: item.current_period_start,
      end_date: item.current_period_end,
      items: [{ price: item.price.id, quantity: 1 }],
    });
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id);
    const expanded = await stripe.subscriptions.retrieve(subscription.id, { expand: ['schedule'] });
    expect((expanded.schedule as Stripe.SubscriptionSchedule).id).toBe(schedule.id);
    expect(await eventsFor('subscription_schedule.created', schedule.id)).toHaveLength(1);
    const [updated] = await eventsFor('customer.subscription.updated', subscription.id);
    expect(updated?.data.previous_attributes).toEqual({ schedule: null });
    // A second schedule for the same subscription is refused, as Stripe refuses it.
    await expect(stripe.subscriptionSchedules.create({ from_subscription: subscription.id })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('already attached to a schedule'),
    });
  });

  it('takes a second phase: the lower price from the period end; nothing changes or is billed before then', async () => {
    const subscription = await subscribe('sd1_tier2_month');
    const end = subscription.items.data[0]!.current_period_end;
    const tier1 = await priceOf('sd1_tier1_month');
    const schedule = await scheduleDowngrade(subscription, tier1.id);
    expect(schedule.phases.map((p) => [p.start_date, p.end_date])).toEqual([
      [subscription.items.data[0]!.current_period_start, end],
      [end, expect.any(Number)],
    ]);
    const next = schedule.phases[1]!.items[0]!.price as Stripe.Price;
    expect((next.product as Stripe.Product).name).toBe('SD1 Tier 1');
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ id: schedule.id });
    const now = await stripe.subscriptions.retrieve(subscription.id);
    expect(now.items.data[0]!.price.id).toBe(subscription.items.data[0]!.price.id);
    expect((await stripe.invoices.list({ subscription: subscription.id })).data).toHaveLength(1);
    expect(await eventsFor('subscription_schedule.updated', schedule.id)).toHaveLength(1);
  });

  it('at the period end the next phase applies: the lower price is billed, an updated event, then released', async () => {
    const subscription = await subscribe('al30_tier3_month');
    const tier1 = await priceOf('al30_tier1_month');
    const schedule = await scheduleDowngrade(subscription, tier1.id);
    const renewed = await advance(subscription.id);
    expect(renewed.status).toBe('active');
    const after = await stripe.subscriptions.retrieve(subscription.id);
    expect(after.items.data[0]!.price.id).toBe(tier1.id);
    expect(after.items.data[0]!.id).toBe(subscription.items.data[0]!.id);
    const invoice = await stripe.invoices.retrieve(renewed.latest_invoice);
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 500 });
    const updates = await eventsFor('customer.subscription.updated', subscription.id);
    const last = updates.at(-1)!;
    expect((last.data.object as Stripe.Subscription).items.data[0]!.price.id).toBe(tier1.id);
    expect(last.data.previous_attributes).toHaveProperty('items');
    // The second phase now runs; at its end the schedule lets the subscription go on by itself.
    const running = await stripe.subscriptionSchedules.retrieve(schedule.id);
    expect(running.current_phase?.start_date).toBe(running.phases[1]!.start_date);
    await advance(subscription.id);
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({
      status: 'released',
      released_subscription: subscription.id,
    });
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBeNull();
  });

  it('released: the subscription goes on at its price, a later period end changes nothing', async () => {
    const subscription = await subscribe('sd1_tier2_month');
    const schedule = await scheduleDowngrade(subscription, (await priceOf('sd1_tier1_month')).id);
    const released = await stripe.subscriptionSchedules.release(schedule.id);
    expect(released).toMatchObject({
      status: 'released',
      subscription: null,
      released_subscription: subscription.id,
    });
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBeNull();
    expect(await eventsFor('subscription_schedule.released', schedule.id)).toHaveLength(1);
    await expect(stripe.subscriptionSchedules.release(schedule.id)).rejects.toMatchObject({ statusCode: 400 });
    await advance(subscription.id);
    const after = await stripe.subscriptions.retrieve(subscription.id);
    expect(after.items.data[0]!.price.id).toBe(subscription.items.data[0]!.price.id);
  });

  it('refuses what Stripe refuses: cancelling a scheduled subscription directly, moving the current phase, a gap', async () => {
    const subscription = await subscribe('sd1_tier2_month');
    const tier1 = await priceOf('sd1_tier1_month');
    const schedule = await scheduleDowngrade(subscription, tier1.id);
    await expect(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('managed by the subscription schedule'),
    });
    const phase = schedule.phases[0]!;
    const items = [{ price: subscription.items.data[0]!.price.id, quantity: 1 }];
    await expect(
      stripe.subscriptionSchedules.update(schedule.id, {
        phases: [{ items, start_date: phase.start_date - 60, end_date: phase.end_date }, { items }],
      }),
    ).rejects.toMatchObject({ message: 'You can not modify the start date of the current phase.' });
    await expect(
      stripe.subscriptionSchedules.update(schedule.id, {
        phases: [
          { items, end_date: phase.end_date },
          { items, start_date: phase.end_date + 60 },
        ],
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'phases[1][start_date]' });
    await expect(stripe.subscriptionSchedules.create({ customer: 'cus_x' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('a subscription canceled at once cancels its schedule', async () => {
    const subscription = await subscribe('sd1_tier2_month');
    const schedule = await scheduleDowngrade(subscription, (await priceOf('sd1_tier1_month')).id);
    await stripe.subscriptions.cancel(subscription.id);
    expect((await stripe.subscriptionSchedules.retrieve(schedule.id)).status).toBe('canceled');
  });
});
