import type { Price, Product, Subscription } from '../../../../shared/contracts/api-subscriptions';
import type { ProductLine } from '../../../../shared/contracts/devices';
import {
  AL_TIERS,
  baseTier,
  SD1_TIERS,
  TIERS,
  type TierFeatures,
  type TierRow,
} from '../../../../shared/sensor-data/tiers';

/**
 * The Plans panel's rules, without React: which products a device's line sells, what each costs and unlocks,
 * which subscription and tier the device has now, and where checkout returns.
 */

/** Cents as the reader's currency text: 1900, "usd" → "$19.00". */
export const formatCents = (cents: number, currency: string, locale?: string): string =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/** A tier's place on its line (0 the base tier), or -1 when the line does not sell it. */
export const tierRank = (productLine: ProductLine, tier: string | undefined): number =>
  TIERS[productLine].findIndex((row) => row.tier === tier);

export interface Plan {
  product: Product;
  row: TierRow;
}

/** The active products of a device's line, each with its tier's row, lowest tier first. */
export const plansForLine = (products: readonly Product[], productLine: ProductLine): Plan[] =>
  products
    .filter((p) => p.active && p.productLine === productLine && tierRank(productLine, p.tier) > 0)
    .map((product) => ({ product, row: TIERS[productLine][tierRank(productLine, product.tier)]! }))
    .sort((a, b) => tierRank(productLine, a.row.tier) - tierRank(productLine, b.row.tier));

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

/** The statuses under which a paid tier applies (as functions/_shared/sensor-data/device-tier.ts decides). */
const PAYING = new Set(['active', 'trialing', 'past_due']);

/** Whether a subscription gives its tier now. */
export const grantsTier = (subscription: Pick<Subscription, 'status' | 'currentPeriodEnd'>, now: number): boolean =>
  PAYING.has(subscription.status) &&
  (subscription.currentPeriodEnd === undefined || subscription.currentPeriodEnd > now);

/** The subscription the panel shows: one that grants a tier, else the most recent. */
export const currentSubscription = (subscriptions: readonly Subscription[], now: number): Subscription | undefined =>
  subscriptions.find((s) => grantsTier(s, now)) ??
  [...subscriptions].sort((a, b) => (b.currentPeriodStart ?? 0) - (a.currentPeriodStart ?? 0))[0];

/** The device's tier now: a granting subscription's, else the line's base tier. */
export const currentTier = (productLine: ProductLine, subscription: Subscription | undefined, now: number): TierRow => {
  if (!subscription || !grantsTier(subscription, now)) return baseTier(productLine);
  const rank = tierRank(productLine, subscription.tier);
  return rank >= 0 ? TIERS[productLine][rank]! : baseTier(productLine);
};

/** A tier id as people read it ("tier2" → "Tier 2") when the product line is not at hand. */
export const tierName = (tier: string | undefined): string =>
  [...SD1_TIERS, ...AL_TIERS].find((row) => row.tier === tier)?.name ?? 'The new tier';

/** "Renews on …", "Ends on …" or "Cancels at period end on …" for a subscription, or undefined without a period. */
export const periodText = (
  subscription: Pick<Subscription, 'status' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'>,
  formatDate: (ms: number) => string,
): string | undefined => {
  const end = subscription.currentPeriodEnd;
  if (end === undefined) return undefined;
  if (subscription.cancelAtPeriodEnd) return `Cancels at period end, on ${formatDate(end)}`;
  return PAYING.has(subscription.status) ? `Renews on ${formatDate(end)}` : `Ended on ${formatDate(end)}`;
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
