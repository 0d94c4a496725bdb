import type Stripe from 'stripe';
import type { ProductLine } from '../../shared/contracts/devices';

/**
 * The catalogue the product sells (spec §9's lines and tiers, and the cellular data service), with the prices we
 * chose (the spec shows none; docs/billing-local-stripe.md lists them). Amounts in US cents.
 */
export interface DemoProduct {
  /** A fixed id, so seeding finds what an earlier run made. */
  id: string;
  /** The product reads the tier from the name ("Tier N") and the cellular service from "ellular data service". */
  name: string;
  metadata: Record<string, string>;
  /** Per device and month. */
  monthly: number;
  /** Per device and year; none for a monthly-only product. */
  yearly?: number;
}

const TIER_PRICES: Record<ProductLine, Record<string, { monthly: number; yearly: number }>> = {
  sd1: { tier1: { monthly: 900, yearly: 9_000 }, tier2: { monthly: 1_900, yearly: 19_000 } },
  al30: {
    tier1: { monthly: 500, yearly: 5_000 },
    tier2: { monthly: 1_200, yearly: 12_000 },
    tier3: { monthly: 2_500, yearly: 25_000 },
  },
  al60: {
    tier1: { monthly: 500, yearly: 5_000 },
    tier2: { monthly: 1_200, yearly: 12_000 },
    tier3: { monthly: 2_500, yearly: 25_000 },
  },
  al80: {
    tier1: { monthly: 500, yearly: 5_000 },
    tier2: { monthly: 1_200, yearly: 12_000 },
    tier3: { monthly: 2_500, yearly: 25_000 },
  },
};

export const CELLULAR_PRODUCT_ID = 'prod_cellular_data_service';

export const DEMO_CATALOGUE: readonly DemoProduct[] = [
  ...Object.entries(TIER_PRICES).flatMap(([line, tiers]) =>
    Object.entries(tiers).map(([tier, prices]) => ({
      id: `prod_${line}_${tier}`,
      name: `${line.toUpperCase()} Tier ${tier.slice(4)}`,
      metadata: { productLine: line, tier },
      ...prices,
    })),
  ),
  { id: CELLULAR_PRODUCT_ID, name: 'Cellular data service', metadata: { service: 'cellular' }, monthly: 400 },
];

/** The price's lookup key: `sd1_tier2_month`, `cellular_data_service_month`. */
export const demoLookupKey = (product: DemoProduct, interval: 'month' | 'year') =>
  `${product.id.replace(/^prod_/, '')}_${interval}`;

/**
 * Puts DEMO_CATALOGUE in a Stripe account (the local server, or a Stripe test account) through the real SDK, and
 * answers the products. Idempotent: a product found by its id and a price found by its lookup key are kept as they
 * are, so a run after a price change in the table adds nothing; change prices by a new lookup key.
 */
export const seedDemoCatalogue = async (stripe: Pick<Stripe, 'products' | 'prices'>) => {
  const products: Stripe.Product[] = [];
  for (const wanted of DEMO_CATALOGUE) {
    let product = await stripe.products.retrieve(wanted.id).catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    });
    product ??= await stripe.products.create({ id: wanted.id, name: wanted.name, metadata: wanted.metadata });
    const intervals = [
      { interval: 'month' as const, amount: wanted.monthly },
      ...(wanted.yearly ? [{ interval: 'year' as const, amount: wanted.yearly }] : []),
    ];
    const lookupKeys = intervals.map((i) => demoLookupKey(wanted, i.interval));
    const existing = await stripe.prices.list({ lookup_keys: lookupKeys, limit: 100 });
    let monthlyId = existing.data.find((p) => p.lookup_key === lookupKeys[0])?.id;
    for (const { interval, amount } of intervals) {
      const lookupKey = demoLookupKey(wanted, interval);
      if (existing.data.some((p) => p.lookup_key === lookupKey)) continue;
      const price = await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: amount,
        recurring: { interval, interval_count: 1 },
        lookup_key: lookupKey,
        nickname: `${wanted.name}, ${interval}ly`,
      });
      if (interval === 'month') monthlyId = price.id;
    }
    if (monthlyId && product.default_price !== monthlyId) {
      product = await stripe.products.update(product.id, { default_price: monthlyId });
    }
    products.push(product);
  }
  return products;
};
