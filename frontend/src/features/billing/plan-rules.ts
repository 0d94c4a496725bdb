import {
  grantsTier,
  type SubscriptionStatus,
  TIER_GRANTING_STATUSES,
} from '../../../../shared/billing/subscription-status';
import type { Price, Product, Subscription } from '../../../../shared/contracts/api-subscriptions';
import type { ProductLine } from '../../../../shared/contracts/devices';
import type { TierInfo } from '../../../../shared/contracts/sensor-data-readings';
import { baseTier, TIER_NAMES, type TierFeatures, type TierId } from '../../../../shared/sensor-data/tiers';

/**
 * The Plans panel's rules, without React: which products a device's line sells, what each costs and unlocks,
 * which subscription and tier the device has now, and where checkout returns. What each tier unlocks is the
 * API's (GET /sensor-data/tiers): administrators change it without a deploy, so no table is built in here.
 */

/** A tier of a line as the API lists it, lowest first. */
export type LineTier = Pick<TierInfo, 'tier' | 'name' | 'features'>;

/** Cents as the reader's currency text: 1900, "usd" → "$19.00". */
export const formatCents = (cents: number, currency: string, locale?: string): string =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/** A tier's place among its line's tiers (0 the base tier), or -1 when the line does not sell it. */
export const tierRank = (rows: readonly LineTier[], tier: string | undefined): number =>
  rows.findIndex((row) => row.tier === tier);

export interface Plan {
  product: Product;
  row: LineTier;
}

/** The active products of a device's line, each with its tier's row (`rows`: the line's tiers), lowest first. */
export const plansForLine = (
  products: readonly Product[],
  productLine: ProductLine,
  rows: readonly LineTier[],
): Plan[] =>
  products
    .filter((p) => p.active && p.productLine === productLine && tierRank(rows, p.tier) > 0)
    .map((product) => ({ product, row: rows[tierRank(rows, product.tier)]! }))
    .sort((a, b) => tierRank(rows, a.row.tier) - tierRank(rows, b.row.tier));

/** The price a plan shows: the monthly one (the product's default), else its first active one. */
export const monthlyPrice = (prices: readonly Price[], defaultPriceId?: string): Price | undefined => {
  const active = prices.filter((p) => p.active);
  return (
    active.find((p) => p.interval === 'month' && (p.intervalCount ?? 1) === 1) ??
    active.find((p) => p.id === defaultPriceId) ??
    active[0]
  );
};

/** What a tier unlocks, one line each: history, downloads, API. */
export const featureLines = (features: TierFeatures): string[] => {
  const downloads = features.manualDataDownloadPermissionedAccessDays;
  return [
    `${features.historicalDataAccessDays} days of history`,
    downloads === null ? 'No downloads' : `Downloads of the last ${downloads} days`,
    features.apiAccess ? `${features.apiMaxRequests.toLocaleString('en-US')} API requests a month` : 'No API access',
  ];
};

/**
 * Whether a device's tier is changed on its own subscription (Upgrade, Switch: prorated, at period end) rather than
 * bought anew: a subscription that grants a tier now and pays for this device alone. Buying a higher tier beside it
 * would charge for two plans of one device.
 */
export const changesInApp = (subscription: Subscription | undefined, now: number): boolean =>
  subscription !== undefined && grantsTier(subscription, now) && subscription.deviceIds.length <= 1;

/** The subscription the panel shows: one that grants a tier, else the most recent. */
export const currentSubscription = (subscriptions: readonly Subscription[], now: number): Subscription | undefined =>
  subscriptions.find((s) => grantsTier(s, now)) ??
  [...subscriptions].sort((a, b) => (b.currentPeriodStart ?? 0) - (a.currentPeriodStart ?? 0))[0];

/**
 * The device's tier now among its line's tiers: the higher of a granting subscription's (else the base tier) and
 * `applied`, the tier the platform applies to its reads (the data summary's). The summary lags a webhook behind a
 * purchase, so the subscription shows it first; and the summary alone knows a tier granted without a subscription
 * (demo data, staff).
 */
export const currentTier = (
  rows: readonly LineTier[],
  subscription: Subscription | undefined,
  now: number,
  applied?: string,
): LineTier => {
  const paid = subscription && grantsTier(subscription, now) ? tierRank(rows, subscription.tier) : -1;
  const granted = applied === undefined ? -1 : tierRank(rows, applied);
  const rank = Math.max(paid, granted);
  return rank >= 0 ? rows[rank]! : baseTier(rows);
};

/** A tier id as people read it ("tier2" → "Tier 2") when the product line is not at hand (names are fixed). */
export const tierName = (tier: string | undefined): string =>
  (tier !== undefined && TIER_NAMES[tier as TierId]) || 'The new tier';

/**
 * What the Subscription line says of the period: only when one that no longer runs ended ("Ended on 12 Dec 2026").
 * A running subscription's next date ("Renews on …", "Ends on …, then …") is the plan's own line (plan-change-text's
 * `whatHappens`) just below, so the page writes each date once, in one format (the plans panel passes `formatDay`; issue 36).
 */
export const periodText = (
  subscription: Pick<Subscription, 'status' | 'currentPeriodEnd'>,
  formatDate: (ms: number) => string,
): string | undefined => {
  const end = subscription.currentPeriodEnd;
  if (end === undefined || TIER_GRANTING_STATUSES.includes(subscription.status as SubscriptionStatus)) return undefined;
  return `Ended on ${formatDate(end)}`;
};

/**
 * Where Stripe sends the person back, on the web app's origin: the return page with the device, and Stripe's
 * `{CHECKOUT_SESSION_ID}` placeholder, which it fills in.
 */
export const checkoutReturns = (origin: string, deviceId: string) => {
  const device = encodeURIComponent(deviceId);
  return {
    successUrl: `${origin}/billing/return?device=${device}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${origin}/billing/return?device=${device}&cancelled=1`,
  };
};
