import Stripe from 'stripe';
import { addInterval, type Catalogue, formatMoney, priceLabel } from './stripe-catalogue';
import { createSchedules } from './stripe-schedules';
import type {
  CheckoutPlan,
  LocalCheckoutLineItem,
  LocalCheckoutSession,
  LocalCustomer,
  LocalEvent,
  LocalInvoice,
  LocalInvoiceLine,
  LocalPlan,
  LocalPortalSession,
  LocalPrice,
  LocalSubscription,
  LocalSubscriptionItem,
  StripeStore,
  SubscriptionStatus,
} from './stripe-state';
import { SUBSCRIPTION_STATUSES } from './stripe-state';
import {
  arrayField,
  boolField,
  type FormObject,
  intField,
  invalid,
  metadataOf,
  missing,
  nowSeconds,
  objectField,
  randomId,
  requiredString,
  stringField,
} from './stripe-wire';

/**
 * Checkout, subscriptions, invoices, entitlements and portal sessions of the local Stripe server, with the events
 * Stripe sends for each change. Periods are real time; a test moves one subscription to the end of its period.
 */

/** The test cards the hosted checkout page knows, as Stripe's test mode answers them. */
export const TEST_CARDS: Record<string, { ok: true } | { ok: false; code: string; message: string }> = {
  '4242424242424242': { ok: true },
  '4000000000000002': { ok: false, code: 'card_declined', message: 'Your card was declined.' },
  '4000000000009995': { ok: false, code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

export type CardOutcome = { ok: true } | { ok: false; code: string; message: string };

export const cardOutcome = (cardNumber: string): CardOutcome => {
  const digits = cardNumber.replace(/[\s-]/g, '');
  return TEST_CARDS[digits] ?? { ok: false, code: 'incorrect_number', message: 'Your card number is incorrect.' };
};

/** Statuses whose subscriptions give their products' entitlements (Stripe: while the customer may use them). */
const ENTITLED: readonly SubscriptionStatus[] = ['active', 'trialing'];

const clone = <T>(value: T): T => structuredClone(value);

export const createBilling = ({
  store,
  catalogue,
  baseUrl,
  deliver,
}: {
  store: StripeStore;
  catalogue: Catalogue;
  baseUrl: () => string;
  deliver: (event: LocalEvent) => void;
}) => {
  const { state } = store;

  /** Records an event (a snapshot of the object as it is now) and hands it to the webhook sender. */
  const emit = (type: string, object: unknown, previous?: Record<string, unknown>, livemode = false) => {
    const event: LocalEvent = {
      id: randomId('evt_', 24),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      data: {
        object: clone(object),
        ...(previous && Object.keys(previous).length > 0 ? { previous_attributes: previous } : {}),
      },
      livemode,
      pending_webhooks: 1,
      request: { id: randomId('req_'), idempotency_key: null },
      type,
    };
    state.events.push(event);
    deliver(event);
  };

  /** The top-level fields that changed, with their earlier values (an event's `previous_attributes`). */
  const changed = (before: object, after: object) => {
    const a = before as Record<string, unknown>;
    const b = after as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(b)
        .filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]))
        .map((key) => [key, clone(a[key]) ?? null]),
    );
  };

  const findCustomer = (id: string, param = 'id') => {
    const customer = state.customers.find((c) => c.id === id);
    if (!customer) throw missing('customer', id, param);
    return customer;
  };
  const findSubscription = (id: string) => {
    const subscription = state.subscriptions.find((s) => s.id === id);
    if (!subscription) throw missing('subscription', id);
    return subscription;
  };
  const findInvoice = (id: string) => {
    const invoice = state.invoices.find((i) => i.id === id);
    if (!invoice) throw missing('invoice', id);
    return invoice;
  };
  const findSession = (id: string) => {
    const session = state.checkoutSessions.find((s) => s.id === id);
    if (!session) throw missing('checkout.session', id, 'session');
    if (session.status === 'open' && session.expires_at <= nowSeconds()) session.status = 'expired';
    return session;
  };
  const findPortalSession = (id: string) => {
    const session = state.portalSessions.find((s) => s.id === id);
    if (!session) throw missing('billing_portal.session', id);
    return session;
  };

  const productName = (productId: string) => state.products.find((p) => p.id === productId)?.name ?? productId;

  const planOf = (price: LocalPrice): LocalPlan => ({
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring!.interval,
    interval_count: price.recurring!.interval_count,
    livemode: price.livemode,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: price.recurring!.trial_period_days,
    usage_type: 'licensed',
  });

  const newItem = (subscription: string, price: LocalPrice, quantity: number, start: number, end: number) =>
    ({
      id: randomId('si_'),
      object: 'subscription_item',
      billing_thresholds: null,
      created: nowSeconds(),
      current_period_start: start,
      current_period_end: end,
      current_trial: null,
      discounts: [],
      metadata: {},
      plan: planOf(price),
      price: clone(price),
      quantity,
      subscription,
      tax_rates: [],
    }) satisfies LocalSubscriptionItem;

  /** The period every item shares (a subscription's items bill on one cycle). */
  const periodOf = (subscription: LocalSubscription) => {
    const item = subscription.items.data[0];
    return item
      ? { start: item.current_period_start, end: item.current_period_end }
      : { start: subscription.start_date, end: subscription.start_date };
  };

  const line = (
    price: LocalPrice,
    quantity: number,
    amount: number,
    period: { start: number; end: number },
    subscription: { id: string; item: string } | null,
    description: string,
    proration = false,
  ): LocalInvoiceLine => ({
    id: randomId('il_', 24),
    object: 'line_item',
    amount,
    currency: price.currency,
    description,
    discount_amounts: [],
    discountable: !proration,
    discounts: [],
    invoice: null,
    livemode: price.livemode,
    metadata: {},
    parent: subscription
      ? {
          type: 'subscription_item_details',
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: proration ? randomId('ii_', 24) : null,
            proration,
            proration_details: proration ? { credited_items: null } : null,
            subscription: subscription.id,
            subscription_item: subscription.item,
          },
        }
      : null,
    period,
    pretax_credit_amounts: [],
    pricing: {
      type: 'price_details',
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: price.unit_amount_decimal,
    },
    quantity,
    subtotal: amount,
    taxes: [],
  });

  /** The lines that bill each item for one period. */
  const cycleLines = (subscription: LocalSubscription, period: { start: number; end: number }, trial = false) =>
    subscription.items.data.map((item) =>
      line(
        item.price,
        item.quantity,
        trial ? 0 : item.price.unit_amount * item.quantity,
        period,
        { id: subscription.id, item: item.id },
        trial
          ? `Trial period for ${productName(item.price.product)}`
          : `${item.quantity} × ${productName(item.price.product)} (at ${priceLabel(item.price)})`,
      ),
    );

  /** A finalized invoice for the customer, paid at once (the card on file succeeds) unless `paid` is false. */
  const createInvoice = (
    customer: LocalCustomer,
    subscription: LocalSubscription | null,
    lines: LocalInvoiceLine[],
    reason: LocalInvoice['billing_reason'],
    { paid = true }: { paid?: boolean } = {},
  ): LocalInvoice => {
    const now = nowSeconds();
    const id = randomId('in_', 24);
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    // A negative total (a downgrade's credit) goes to the customer's balance, as Stripe does.
    const due = Math.max(0, total);
    const startingBalance = customer.balance;
    if (total < 0) customer.balance += total;
    const number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, '0')}`;
    customer.next_invoice_sequence += 1;
    const currency = lines[0]?.currency ?? subscription?.currency ?? 'usd';
    const invoice: LocalInvoice = {
      id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Device Data (local)',
      amount_due: due,
      amount_overpaid: 0,
      amount_paid: paid ? due : 0,
      amount_remaining: paid ? 0 : due,
      amount_shipping: 0,
      attempt_count: 1,
      attempted: true,
      auto_advance: !paid,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: now,
      currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      description: null,
      discounts: [],
      due_date: null,
      effective_at: now,
      ending_balance: customer.balance,
      hosted_invoice_url: `${baseUrl()}/invoices/${id}`,
      invoice_pdf: null,
      lines: {
        object: 'list',
        data: lines.map((l) => ({ ...l, invoice: id })),
        has_more: false,
        total_count: lines.length,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: customer.livemode,
      metadata: {},
      next_payment_attempt: paid ? null : now + 3 * 86_400,
      number,
      parent: subscription
        ? {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: { metadata: clone(subscription.metadata), subscription: subscription.id },
          }
        : null,
      period_end: Math.max(now, ...lines.map((l) => l.period.end)),
      period_start: Math.min(now, ...lines.map((l) => l.period.start)),
      starting_balance: startingBalance,
      status: paid ? 'paid' : 'open',
      status_transitions: {
        finalized_at: now,
        marked_uncollectible_at: null,
        paid_at: paid ? now : null,
        voided_at: null,
      },
      subtotal: total,
      subtotal_excluding_tax: total,
      total,
      total_excluding_tax: total,
      total_discount_amounts: [],
      total_taxes: [],
      webhooks_delivered_at: now,
    };
    state.invoices.push(invoice);
    return invoice;
  };

  /** The subscription takes these items, position by position, on its current cycle (a schedule's next phase). */
  const setItems = (subscription: LocalSubscription, items: { price: LocalPrice; quantity: number }[]) => {
    const { start, end } = periodOf(subscription);
    subscription.items.data = items.map(({ price, quantity }, index) => {
      const existing = subscription.items.data[index];
      if (!existing) return newItem(subscription.id, price, quantity, start, end);
      return Object.assign(existing, { price: clone(price), plan: planOf(price), quantity });
    });
    subscription.items.total_count = subscription.items.data.length;
  };

  const schedules = createSchedules({ store, catalogue, emit, changed, findSubscription, setItems });

  // ---- Checkout ----------------------------------------------------------------------------------------------

  const createCheckoutSession = async (form: FormObject, livemode: boolean): Promise<LocalCheckoutSession> => {
    const mode = requiredString(form, 'mode');
    if (mode !== 'subscription') {
      throw invalid(`The local Stripe server implements Checkout in subscription mode only; got mode=${mode}.`, {
        param: 'mode',
      });
    }
    const customerId = stringField(form, 'customer');
    const customerEmail = stringField(form, 'customer_email');
    if (customerId && customerEmail) {
      throw invalid('You may only specify one of these parameters: customer, customer_email.', {
        param: 'customer_email',
      });
    }
    const customer = customerId ? findCustomer(customerId, 'customer') : null;
    const successUrl = requiredString(form, 'success_url');
    const items = arrayField(form, 'line_items');
    if (items.length === 0) throw invalid('Missing required param: line_items.', { param: 'line_items' });
    const lineItems: LocalCheckoutLineItem[] = items.map((item, index) => {
      const param = `line_items[${index}][price]`;
      if (item.price_data !== undefined) {
        throw invalid('The local Stripe server takes line items by price id, not price_data.', { param });
      }
      const price = catalogue.findPrice(requiredString(item, 'price'), param);
      if (!price.active) throw invalid(`The price specified is inactive: ${price.id}.`, { param });
      const quantity = intField(item, 'quantity', { min: 1 }) ?? 1;
      const amount = price.unit_amount * quantity;
      return {
        id: randomId('li_', 24),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: productName(price.product),
        price: clone(price),
        quantity,
      };
    });
    const recurring = lineItems.filter((l) => l.price.recurring);
    if (recurring.length === 0) {
      throw invalid('You must specify at least one recurring price in `subscription` mode.', { param: 'line_items' });
    }
    const cycle = (l: LocalCheckoutLineItem) => `${l.price.recurring!.interval_count} ${l.price.recurring!.interval}`;
    if (new Set(recurring.map(cycle)).size > 1) {
      throw invalid(
        'All prices on a subscription must have the same `recurring.interval` and `recurring.interval_count`.',
        { param: 'line_items' },
      );
    }
    if (new Set(lineItems.map((l) => l.currency)).size > 1) {
      throw invalid('All line items must be in the same currency.', { param: 'line_items' });
    }
    const subscriptionData = objectField(form, 'subscription_data') ?? {};
    const now = nowSeconds();
    const id = `cs_test_${randomId('', 58)}`;
    const total = lineItems.reduce((sum, l) => sum + l.amount_total, 0);
    const session: LocalCheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: stringField(form, 'cancel_url'),
      client_reference_id: stringField(form, 'client_reference_id'),
      created: now,
      currency: lineItems[0]!.currency,
      customer: customer?.id ?? null,
      customer_creation: customer ? null : 'always',
      customer_details: null,
      customer_email: customerEmail,
      expires_at: intField(form, 'expires_at') ?? now + 86_400,
      invoice: null,
      livemode,
      metadata: metadataOf(form),
      mode: 'subscription',
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      url: `${baseUrl()}/checkout/${id}`,
    };
    const plan: CheckoutPlan = {
      lineItems,
      subscriptionMetadata: metadataOf(subscriptionData),
      trialPeriodDays: intField(subscriptionData, 'trial_period_days', { min: 1 }),
      trialEnd: intField(subscriptionData, 'trial_end', { min: now + 1 }),
      description: stringField(subscriptionData, 'description'),
    };
    state.checkoutSessions.push(session);
    state.checkoutPlans[id] = plan;
    await store.save();
    return session;
  };

  const checkoutLineItems = (sessionId: string) => state.checkoutPlans[findSession(sessionId).id]?.lineItems ?? [];

  /** Where the browser goes after paying: the success URL with `{CHECKOUT_SESSION_ID}` filled in, as Stripe. */
  const successRedirect = (session: LocalCheckoutSession) =>
    (session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', session.id);

  const expireCheckoutSession = async (id: string) => {
    const session = findSession(id);
    if (session.status !== 'open') {
      throw invalid(`Only Checkout Sessions with a status of \`open\` can be expired; this one is ${session.status}.`);
    }
    session.status = 'expired';
    await store.save();
    emit('checkout.session.expired', session);
    return session;
  };

  /**
   * The hosted page's "Pay": a declined card changes nothing; the test card creates the customer (when the session
   * named only an e-mail), one subscription for all recurring items (Stripe makes one per session) and its first
   * invoice, paid, then completes the session. Answers the outcome for the page.
   */
  const payCheckoutSession = async (id: string, cardNumber: string, email?: string): Promise<CardOutcome> => {
    const session = findSession(id);
    if (session.status !== 'open') throw invalid(`This Checkout Session is ${session.status}.`);
    const outcome = cardOutcome(cardNumber);
    if (!outcome.ok) return outcome;
    const plan = state.checkoutPlans[id]!;
    let customer: LocalCustomer;
    if (session.customer) customer = findCustomer(session.customer);
    else {
      const address = session.customer_email ?? email?.trim() ?? null;
      if (!address) return { ok: false, code: 'email_invalid', message: 'Enter your e-mail address.' };
      customer = newCustomer({ email: address }, session.livemode);
      emit('customer.created', customer);
    }
    const now = nowSeconds();
    const recurringItems = plan.lineItems.filter((l) => l.price.recurring);
    const recurring = recurringItems[0]!.price.recurring!;
    const trialEnd =
      plan.trialEnd ??
      ((plan.trialPeriodDays ?? recurring.trial_period_days)
        ? now + (plan.trialPeriodDays ?? recurring.trial_period_days!) * 86_400
        : null);
    const periodEnd = trialEnd ?? addInterval(now, recurring);
    const subscriptionId = randomId('sub_', 24);
    const subscription: LocalSubscription = {
      id: subscriptionId,
      object: 'subscription',
      billing_cycle_anchor: periodEnd,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency: session.currency,
      customer: customer.id,
      days_until_due: null,
      default_payment_method: null,
      description: plan.description,
      discounts: [],
      ended_at: null,
      items: {
        object: 'list',
        data: recurringItems.map((l) => newItem(subscriptionId, l.price, l.quantity, now, periodEnd)),
        has_more: false,
        total_count: recurringItems.length,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
      },
      latest_invoice: null,
      livemode: session.livemode,
      metadata: clone(plan.subscriptionMetadata),
      pause_collection: null,
      pending_update: null,
      schedule: null,
      start_date: now,
      status: trialEnd ? 'trialing' : 'active',
      test_clock: null,
      trial_end: trialEnd,
      trial_start: trialEnd ? now : null,
    };
    const oneOff = plan.lineItems
      .filter((l) => !l.price.recurring)
      .map((l) =>
        line(
          l.price,
          l.quantity,
          l.amount_total,
          { start: now, end: now },
          null,
          `${l.quantity} × ${productName(l.price.product)}`,
        ),
      );
    const invoice = createInvoice(
      customer,
      subscription,
      [...cycleLines(subscription, { start: now, end: periodEnd }, Boolean(trialEnd)), ...oneOff],
      'subscription_create',
    );
    subscription.latest_invoice = invoice.id;
    state.subscriptions.push(subscription);
    Object.assign(session, {
      customer: customer.id,
      customer_details: { email: customer.email, name: customer.name },
      invoice: invoice.id,
      payment_status: invoice.amount_due > 0 ? 'paid' : 'no_payment_required',
      status: 'complete',
      subscription: subscription.id,
      url: null,
    } satisfies Partial<LocalCheckoutSession>);
    await store.save();
    emit('customer.subscription.created', subscription);
    emit('invoice.paid', invoice);
    emit('checkout.session.completed', session);
    return outcome;
  };

  const newCustomer = (fields: { email: string | null; name?: string | null }, livemode: boolean) => {
    const customer: LocalCustomer = {
      id: randomId('cus_'),
      object: 'customer',
      created: nowSeconds(),
      email: fields.email,
      name: fields.name ?? null,
      description: null,
      phone: null,
      metadata: {},
      livemode,
      address: null,
      balance: 0,
      currency: null,
      default_source: null,
      delinquent: false,
      invoice_prefix: randomId('', 8).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      next_invoice_sequence: 1,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    state.customers.push(customer);
    return customer;
  };

  // ---- Subscriptions -----------------------------------------------------------------------------------------

  const assertChangeable = (subscription: LocalSubscription) => {
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw invalid(
        `A canceled subscription can only update its cancellation_details and metadata. (${subscription.id})`,
      );
    }
  };

  /** The lines Stripe's proration makes for moving an item from one price/quantity to another at `at`. */
  const prorationLines = (
    subscription: LocalSubscription,
    item: LocalSubscriptionItem,
    to: { price: LocalPrice; quantity: number },
    at: number,
  ) => {
    const { start, end } = periodOf(subscription);
    const fraction = end > start ? Math.min(1, Math.max(0, (end - at) / (end - start))) : 0;
    const when = new Date(at * 1000).toISOString().slice(0, 10);
    const period = { start: at, end };
    return [
      line(
        item.price,
        item.quantity,
        -Math.round(item.price.unit_amount * item.quantity * fraction),
        period,
        { id: subscription.id, item: item.id },
        `Unused time on ${item.quantity} × ${productName(item.price.product)} after ${when}`,
        true,
      ),
      line(
        to.price,
        to.quantity,
        Math.round(to.price.unit_amount * to.quantity * fraction),
        period,
        { id: subscription.id, item: item.id },
        `Remaining time on ${to.quantity} × ${productName(to.price.product)} after ${when}`,
        true,
      ),
    ];
  };

  const SUBSCRIPTION_UPDATE_PARAMS = [
    'items',
    'proration_behavior',
    'proration_date',
    'cancel_at_period_end',
    'cancel_at',
    'cancellation_details',
    'metadata',
    'description',
    'expand',
    'payment_behavior',
  ];

  const updateSubscription = async (id: string, form: FormObject): Promise<LocalSubscription> => {
    const subscription = findSubscription(id);
    const unknown = Object.keys(form).find((key) => !SUBSCRIPTION_UPDATE_PARAMS.includes(key));
    if (unknown) {
      throw invalid(
        `The local Stripe server does not implement the subscription update parameter: ${unknown}. It takes ${SUBSCRIPTION_UPDATE_PARAMS.join(', ')}.`,
        { param: unknown },
      );
    }
    if (subscription.schedule && (form.cancel_at_period_end !== undefined || form.cancel_at !== undefined)) {
      throw invalid(
        `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
        { param: form.cancel_at !== undefined ? 'cancel_at' : 'cancel_at_period_end' },
      );
    }
    const before = clone(subscription);
    const onlyMetadata = Object.keys(form).every((key) => ['metadata', 'expand', 'cancellation_details'].includes(key));
    if (!onlyMetadata) assertChangeable(subscription);
    const behavior = stringField(form, 'proration_behavior') ?? 'create_prorations';
    if (!['create_prorations', 'always_invoice', 'none'].includes(behavior)) {
      throw invalid(`Invalid proration_behavior: ${behavior}`, { param: 'proration_behavior' });
    }
    const at = intField(form, 'proration_date') ?? nowSeconds();
    const proration: LocalInvoiceLine[] = [];
    const { start, end } = periodOf(subscription);
    arrayField(form, 'items').forEach((change, index) => {
      const itemId = stringField(change, 'id');
      const priceId = stringField(change, 'price');
      const price = priceId ? catalogue.findPrice(priceId, `items[${index}][price]`) : null;
      if (price && !price.recurring) {
        throw invalid('A subscription item needs a recurring price.', { param: `items[${index}][price]` });
      }
      if (price && !price.active) {
        throw invalid(`The price specified is inactive: ${price.id}.`, { param: `items[${index}][price]` });
      }
      const existing = itemId ? subscription.items.data.find((i) => i.id === itemId) : undefined;
      if (itemId && !existing) throw missing('subscription_item', itemId, `items[${index}][id]`);
      if (
        price &&
        (price.recurring!.interval !== subscription.items.data[0]!.price.recurring!.interval ||
          price.recurring!.interval_count !== subscription.items.data[0]!.price.recurring!.interval_count)
      ) {
        throw invalid(
          'The local Stripe server changes prices within one billing interval only (month to month, year to year); ' +
            'a change of interval, which resets the billing cycle, is not implemented.',
          { param: `items[${index}][price]` },
        );
      }
      if (existing && boolField(change, 'deleted')) {
        const zero = { ...existing.price, unit_amount: 0, unit_amount_decimal: '0' };
        if (behavior !== 'none')
          proration.push(...prorationLines(subscription, existing, { price: zero, quantity: 1 }, at).slice(0, 1));
        subscription.items.data = subscription.items.data.filter((i) => i !== existing);
        return;
      }
      const quantity = intField(change, 'quantity', { min: 1 });
      if (existing) {
        const to = { price: price ?? existing.price, quantity: quantity ?? existing.quantity };
        if (to.price.id === existing.price.id && to.quantity === existing.quantity) return;
        if (behavior !== 'none') proration.push(...prorationLines(subscription, existing, to, at));
        Object.assign(existing, { price: clone(to.price), plan: planOf(to.price), quantity: to.quantity });
        existing.metadata = metadataOf(change, existing.metadata);
        return;
      }
      if (!price) throw invalid('Missing required param: items[][price].', { param: `items[${index}][price]` });
      const added = newItem(subscription.id, price, quantity ?? 1, start, end);
      added.metadata = metadataOf(change);
      if (behavior !== 'none') {
        const zero = { ...price, unit_amount: 0, unit_amount_decimal: '0' };
        proration.push(
          ...prorationLines(subscription, { ...added, price: zero }, { price, quantity: quantity ?? 1 }, at).slice(1),
        );
      }
      subscription.items.data.push(added);
    });
    if (subscription.items.data.length === 0) {
      throw invalid('A subscription needs at least one item; cancel it instead.', { param: 'items' });
    }
    subscription.items.total_count = subscription.items.data.length;
    subscription.metadata = metadataOf(form, subscription.metadata);
    if (form.description !== undefined) subscription.description = stringField(form, 'description');
    const cancelAtPeriodEnd = boolField(form, 'cancel_at_period_end');
    if (cancelAtPeriodEnd !== null) {
      subscription.cancel_at_period_end = cancelAtPeriodEnd;
      subscription.cancel_at = cancelAtPeriodEnd ? end : null;
      subscription.canceled_at = cancelAtPeriodEnd ? nowSeconds() : null;
      subscription.cancellation_details = {
        comment: null,
        feedback: null,
        reason: cancelAtPeriodEnd ? 'cancellation_requested' : null,
      };
    }
    if (form.cancel_at === '') Object.assign(subscription, { cancel_at: null, cancel_at_period_end: false });
    else if (form.cancel_at !== undefined) {
      const cancelAt = intField(form, 'cancel_at')!;
      Object.assign(subscription, { cancel_at: cancelAt, cancel_at_period_end: cancelAt === end });
    }
    const details = objectField(form, 'cancellation_details');
    if (details && subscription.cancellation_details) {
      subscription.cancellation_details.comment = stringField(details, 'comment');
    }
    let invoice: LocalInvoice | undefined;
    if (proration.length > 0 && behavior === 'always_invoice') {
      invoice = createInvoice(findCustomer(subscription.customer), subscription, proration, 'subscription_update');
      subscription.latest_invoice = invoice.id;
    } else if (proration.length > 0) {
      state.pendingProrations[subscription.id] = [...(state.pendingProrations[subscription.id] ?? []), ...proration];
    }
    await store.save();
    const previous = changed(before, subscription);
    if (Object.keys(previous).length > 0) emit('customer.subscription.updated', subscription, previous);
    if (invoice) emit('invoice.paid', invoice);
    return subscription;
  };

  const cancelSubscription = async (id: string, reason = 'cancellation_requested'): Promise<LocalSubscription> => {
    const subscription = findSubscription(id);
    if (subscription.status === 'canceled') {
      throw invalid(`This subscription is already canceled: ${id}`, { code: 'resource_missing' });
    }
    const now = nowSeconds();
    Object.assign(subscription, {
      status: 'canceled',
      canceled_at: subscription.canceled_at ?? now,
      ended_at: now,
      cancel_at: null,
      cancellation_details: { comment: subscription.cancellation_details?.comment ?? null, feedback: null, reason },
    } satisfies Partial<LocalSubscription>);
    delete state.pendingProrations[id];
    schedules.cancelWith(subscription, now);
    await store.save();
    emit('customer.subscription.deleted', subscription);
    return subscription;
  };

  // ---- Test helpers (the `/_test/…` routes) -----------------------------------------------------------------

  /**
   * Ends the subscription's current period now, as a test clock reaching it would: a subscription set to cancel at
   * period end is canceled; a trial becomes active and is billed; any other is renewed for a new period, billed
   * with the prorations pending from earlier changes.
   */
  const advanceToPeriodEnd = async (id: string): Promise<LocalSubscription> => {
    const subscription = findSubscription(id);
    assertChangeable(subscription);
    const now = nowSeconds();
    for (const item of subscription.items.data) item.current_period_end = now;
    if (subscription.cancel_at_period_end || (subscription.cancel_at !== null && subscription.cancel_at <= now)) {
      return cancelSubscription(id);
    }
    const before = clone(subscription);
    // A schedule's next phase starts with the new period: its prices are the ones billed from now on.
    if (schedules.atPeriodEnd(subscription, now).cancel) return cancelSubscription(id);
    const recurring = subscription.items.data[0]!.price.recurring!;
    const end = addInterval(now, recurring);
    for (const item of subscription.items.data) {
      item.current_period_start = now;
      item.current_period_end = end;
    }
    if (subscription.status === 'trialing') subscription.trial_end = now;
    const pending = state.pendingProrations[id] ?? [];
    delete state.pendingProrations[id];
    const invoice = createInvoice(
      findCustomer(subscription.customer),
      subscription,
      [...cycleLines(subscription, { start: now, end }), ...pending],
      'subscription_cycle',
    );
    Object.assign(subscription, { status: 'active', latest_invoice: invoice.id, billing_cycle_anchor: end });
    findCustomer(subscription.customer).delinquent = false;
    await store.save();
    emit('invoice.paid', invoice);
    emit('customer.subscription.updated', subscription, changed(before, subscription));
    return subscription;
  };

  /** The renewal's payment fails: an open invoice, the subscription past due, `invoice.payment_failed`. */
  const failPayment = async (id: string) => {
    const subscription = findSubscription(id);
    assertChangeable(subscription);
    const before = clone(subscription);
    const customer = findCustomer(subscription.customer);
    const { end } = periodOf(subscription);
    const recurring = subscription.items.data[0]!.price.recurring!;
    const invoice = createInvoice(
      customer,
      subscription,
      cycleLines(subscription, { start: end, end: addInterval(end, recurring) }),
      'subscription_cycle',
      { paid: false },
    );
    Object.assign(subscription, { status: 'past_due', latest_invoice: invoice.id });
    customer.delinquent = true;
    await store.save();
    emit('invoice.payment_failed', invoice);
    emit('customer.subscription.updated', subscription, changed(before, subscription));
    return invoice;
  };

  /** Stripe sends `trial_will_end` three days before a trial ends; a test asks for it now. */
  const trialWillEnd = async (id: string) => {
    const subscription = findSubscription(id);
    if (subscription.status !== 'trialing') {
      throw invalid(`The subscription ${id} is ${subscription.status}, not trialing.`);
    }
    emit('customer.subscription.trial_will_end', subscription);
    return subscription;
  };

  /** Puts a subscription in any of Stripe's statuses (the product shows each its own way). */
  const setStatus = async (id: string, status: string) => {
    if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) {
      throw invalid(`Unknown subscription status: ${status}. One of ${SUBSCRIPTION_STATUSES.join(', ')}.`, {
        param: 'status',
      });
    }
    const subscription = findSubscription(id);
    const before = clone(subscription);
    subscription.status = status as SubscriptionStatus;
    if (status === 'canceled') subscription.ended_at ??= nowSeconds();
    await store.save();
    emit(
      status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      subscription,
      changed(before, subscription),
    );
    return subscription;
  };

  // ---- Entitlements and the portal ---------------------------------------------------------------------------

  /** A feature per distinct lookup key: the product's `tier` metadata, else its id. */
  const featureOf = (productId: string) => {
    const product = state.products.find((p) => p.id === productId);
    const lookupKey = product?.metadata.tier ?? productId;
    return {
      id: `feat_${Buffer.from(lookupKey).toString('hex')}`,
      object: 'entitlements.feature' as const,
      active: true,
      livemode: product?.livemode ?? false,
      lookup_key: lookupKey,
      metadata: {},
      name: product?.metadata.tier ? `${product.metadata.tier}` : (product?.name ?? productId),
    };
  };

  const findFeature = (id: string) => {
    const lookupKey = /^feat_([0-9a-f]+)$/.exec(id)?.[1];
    if (!lookupKey) throw missing('entitlements.feature', id);
    const key = Buffer.from(lookupKey, 'hex').toString();
    const product = state.products.find((p) => (p.metadata.tier ?? p.id) === key);
    if (!product) throw missing('entitlements.feature', id);
    return featureOf(product.id);
  };

  const activeEntitlements = (customerId: string) => {
    findCustomer(customerId, 'customer');
    const features = new Map<string, ReturnType<typeof featureOf>>();
    for (const subscription of state.subscriptions) {
      if (subscription.customer !== customerId || !ENTITLED.includes(subscription.status)) continue;
      for (const item of subscription.items.data) {
        const feature = featureOf(item.price.product);
        features.set(feature.lookup_key, feature);
      }
    }
    return [...features.values()].map((feature) => ({
      id: `ent_${Buffer.from(`${customerId}:${feature.lookup_key}`).toString('hex').slice(0, 40)}`,
      object: 'entitlements.active_entitlement' as const,
      feature: feature.id,
      livemode: feature.livemode,
      lookup_key: feature.lookup_key,
    }));
  };

  const createPortalSession = async (form: FormObject, livemode: boolean): Promise<LocalPortalSession> => {
    const customer = findCustomer(requiredString(form, 'customer'), 'customer');
    const id = randomId('bps_', 24);
    const session: LocalPortalSession = {
      id,
      object: 'billing_portal.session',
      configuration: stringField(form, 'configuration') ?? 'bpc_local_default',
      created: nowSeconds(),
      customer: customer.id,
      customer_account: null,
      flow: null,
      livemode,
      locale: null,
      on_behalf_of: null,
      return_url: stringField(form, 'return_url'),
      url: `${baseUrl()}/portal/${id}`,
    };
    state.portalSessions.push(session);
    await store.save();
    return session;
  };

  return {
    emit,
    findCustomer,
    findSubscription,
    findInvoice,
    findSession,
    findPortalSession,
    findFeature,
    productName,
    newCustomer,
    createCheckoutSession,
    checkoutLineItems,
    successRedirect,
    expireCheckoutSession,
    payCheckoutSession,
    updateSubscription,
    cancelSubscription,
    advanceToPeriodEnd,
    failPayment,
    trialWillEnd,
    setStatus,
    activeEntitlements,
    createPortalSession,
    formatMoney,
    findSchedule: schedules.findSchedule,
    createSchedule: schedules.createSchedule,
    updateSchedule: schedules.updateSchedule,
    releaseSchedule: schedules.releaseSchedule,
  };
};

export type Billing = ReturnType<typeof createBilling>;
