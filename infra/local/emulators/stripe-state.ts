import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the local Stripe server keeps, each object in Stripe's wire shape (API version of the installed `stripe`
 * SDK: periods on subscription items, an invoice's subscription under `parent.subscription_details`). Only the
 * fields the product reads, and those the SDK's types call required, are filled; the rest are absent or null.
 */

export interface LocalCustomer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  address: null;
  balance: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  invoice_prefix: string;
  invoice_settings: {
    custom_fields: null;
    default_payment_method: null;
    footer: null;
    rendering_options: null;
  };
  next_invoice_sequence: number;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  test_clock: null;
}

export interface LocalProduct {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  updated: number;
  default_price: string | null;
  description: string | null;
  images: string[];
  livemode: boolean;
  marketing_features: { name: string }[];
  metadata: Record<string, string>;
  name: string;
  package_dimensions: null;
  shippable: null;
  statement_descriptor: null;
  tax_code: null;
  type: 'service';
  unit_label: string | null;
  url: string | null;
}

export interface LocalRecurring {
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
  meter: null;
  trial_period_days: number | null;
  usage_type: 'licensed';
}

export interface LocalPrice {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: boolean;
  lookup_key: string | null;
  metadata: Record<string, string>;
  nickname: string | null;
  product: string;
  recurring: LocalRecurring | null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'one_time' | 'recurring';
  unit_amount: number;
  unit_amount_decimal: string;
}

/** The legacy `plan` Stripe still puts beside each subscription item's price. */
export interface LocalPlan {
  id: string;
  object: 'plan';
  active: boolean;
  amount: number;
  amount_decimal: string;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  interval: LocalRecurring['interval'];
  interval_count: number;
  livemode: boolean;
  metadata: Record<string, string>;
  meter: null;
  nickname: string | null;
  product: string;
  tiers_mode: null;
  transform_usage: null;
  trial_period_days: number | null;
  usage_type: 'licensed';
}

export interface LocalSubscriptionItem {
  id: string;
  object: 'subscription_item';
  billing_thresholds: null;
  created: number;
  current_period_start: number;
  current_period_end: number;
  current_trial: null;
  discounts: string[];
  metadata: Record<string, string>;
  plan: LocalPlan;
  price: LocalPrice;
  quantity: number;
  subscription: string;
  tax_rates: [];
}

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'paused';

export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
];

export interface LocalSubscription {
  id: string;
  object: 'subscription';
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: string | null; feedback: null; reason: string | null } | null;
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  days_until_due: null;
  default_payment_method: null;
  description: string | null;
  discounts: string[];
  ended_at: number | null;
  items: { object: 'list'; data: LocalSubscriptionItem[]; has_more: false; total_count: number; url: string };
  latest_invoice: string | null;
  livemode: boolean;
  metadata: Record<string, string>;
  pause_collection: null;
  pending_update: null;
  /** The subscription schedule that manages it, while one does (a downgrade at period end). */
  schedule: string | null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: null;
  trial_end: number | null;
  trial_start: number | null;
}

export interface LocalSchedulePhaseItem {
  billing_thresholds: null;
  discounts: [];
  metadata: Record<string, string>;
  plan: string;
  price: string;
  quantity: number;
  tax_rates: [];
}

export interface LocalSchedulePhase {
  add_invoice_items: [];
  application_fee_percent: null;
  billing_cycle_anchor: null;
  billing_thresholds: null;
  collection_method: null;
  currency: string;
  default_payment_method: null;
  default_tax_rates: [];
  description: null;
  discounts: [];
  end_date: number;
  invoice_settings: null;
  items: LocalSchedulePhaseItem[];
  metadata: Record<string, string>;
  on_behalf_of: null;
  proration_behavior: 'create_prorations' | 'always_invoice' | 'none';
  start_date: number;
  transfer_data: null;
  trial_end: null;
}

export interface LocalSubscriptionSchedule {
  id: string;
  object: 'subscription_schedule';
  application: null;
  billing_mode: { type: 'classic'; flexible: null };
  canceled_at: number | null;
  completed_at: number | null;
  created: number;
  current_phase: { start_date: number; end_date: number } | null;
  customer: string;
  customer_account: null;
  default_settings: {
    application_fee_percent: null;
    billing_cycle_anchor: 'automatic';
    billing_thresholds: null;
    collection_method: 'charge_automatically';
    default_payment_method: null;
    description: null;
    invoice_settings: { account_tax_ids: null; days_until_due: null; issuer: { type: 'self' } };
    on_behalf_of: null;
    transfer_data: null;
  };
  end_behavior: 'release' | 'cancel';
  livemode: boolean;
  metadata: Record<string, string>;
  phases: LocalSchedulePhase[];
  released_at: number | null;
  released_subscription: string | null;
  status: 'not_started' | 'active' | 'completed' | 'released' | 'canceled';
  subscription: string | null;
  test_clock: null;
}

export interface LocalInvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string | null;
  discount_amounts: [];
  discountable: boolean;
  discounts: [];
  invoice: string | null;
  livemode: boolean;
  metadata: Record<string, string>;
  parent: {
    type: 'subscription_item_details';
    invoice_item_details: null;
    subscription_item_details: {
      invoice_item: string | null;
      proration: boolean;
      proration_details: { credited_items: null } | null;
      subscription: string | null;
      subscription_item: string;
    };
  } | null;
  period: { start: number; end: number };
  pretax_credit_amounts: [];
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
  quantity: number;
  subtotal: number;
  taxes: [];
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';

export interface LocalInvoice {
  id: string;
  object: 'invoice';
  account_country: string;
  account_name: string;
  amount_due: number;
  amount_overpaid: number;
  amount_paid: number;
  amount_remaining: number;
  amount_shipping: number;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  description: string | null;
  discounts: [];
  due_date: null;
  effective_at: number | null;
  ending_balance: number | null;
  hosted_invoice_url: string | null;
  invoice_pdf: null;
  lines: { object: 'list'; data: LocalInvoiceLine[]; has_more: false; total_count: number; url: string };
  livemode: boolean;
  metadata: Record<string, string>;
  next_payment_attempt: number | null;
  number: string | null;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { metadata: Record<string, string>; subscription: string };
  } | null;
  period_end: number;
  period_start: number;
  starting_balance: number;
  status: InvoiceStatus;
  status_transitions: {
    finalized_at: number | null;
    marked_uncollectible_at: null;
    paid_at: number | null;
    voided_at: null;
  };
  subtotal: number;
  subtotal_excluding_tax: number;
  total: number;
  total_excluding_tax: number;
  total_discount_amounts: [];
  total_taxes: [];
  webhooks_delivered_at: number | null;
}

export interface LocalCheckoutLineItem {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: LocalPrice;
  quantity: number;
}

export interface LocalCheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string | null;
  customer_creation: 'always' | null;
  customer_details: { email: string | null; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  livemode: boolean;
  metadata: Record<string, string>;
  mode: 'subscription';
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string | null;
  url: string | null;
}

/** What checkout keeps beside the session for completing it (Stripe keeps this server-side too). */
export interface CheckoutPlan {
  lineItems: LocalCheckoutLineItem[];
  subscriptionMetadata: Record<string, string>;
  trialPeriodDays: number | null;
  trialEnd: number | null;
  description: string | null;
}

export interface LocalPortalSession {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  created: number;
  customer: string;
  customer_account: null;
  flow: null;
  livemode: boolean;
  locale: null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}

export interface LocalEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface StripeState {
  customers: LocalCustomer[];
  products: LocalProduct[];
  prices: LocalPrice[];
  subscriptions: LocalSubscription[];
  subscriptionSchedules: LocalSubscriptionSchedule[];
  invoices: LocalInvoice[];
  checkoutSessions: LocalCheckoutSession[];
  checkoutPlans: Record<string, CheckoutPlan>;
  portalSessions: LocalPortalSession[];
  /** Proration lines created with `create_prorations`, billed on the subscription's next invoice (as Stripe). */
  pendingProrations: Record<string, LocalInvoiceLine[]>;
  events: LocalEvent[];
}

const emptyState = (): StripeState => ({
  customers: [],
  products: [],
  prices: [],
  subscriptions: [],
  subscriptionSchedules: [],
  invoices: [],
  checkoutSessions: [],
  checkoutPlans: {},
  portalSessions: [],
  pendingProrations: {},
  events: [],
});

/** Events kept for `/v1/events` (Stripe keeps 30 days; a local stack needs far fewer). */
const MAX_EVENTS = 2_000;

/**
 * The state in memory, written whole to `state.json` after each change (so a restart keeps it). A data dir from
 * before billing holds only `customers.json`: its customers are read in.
 */
export const createStripeStore = async (dataDir: string) => {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'state.json');
  const legacy = path.join(dataDir, 'customers.json');
  const fresh = !existsSync(file) && !existsSync(legacy);
  const state = emptyState();
  if (existsSync(file)) Object.assign(state, JSON.parse(await readFile(file, 'utf8')));
  else if (existsSync(legacy)) state.customers = JSON.parse(await readFile(legacy, 'utf8')).customers;
  let saving = Promise.resolve();
  const save = () => {
    if (state.events.length > MAX_EVENTS) state.events.splice(0, state.events.length - MAX_EVENTS);
    const snapshot = `${JSON.stringify(state)}\n`;
    // One write at a time, each whole then renamed: a crash never leaves half a file.
    saving = saving.then(async () => {
      await writeFile(`${file}.tmp`, snapshot);
      await rename(`${file}.tmp`, file);
    });
    return saving;
  };
  if (fresh) await save();
  return { state, save, fresh };
};

export type StripeStore = Awaited<ReturnType<typeof createStripeStore>>;
