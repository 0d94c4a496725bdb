import type { Price, Product, Subscription } from '../../../../shared/contracts/api-subscriptions';
import { DEFAULT_TIERS } from '../../../../shared/sensor-data/tiers';
import {
  checkoutReturns,
  currentSubscription,
  currentTier,
  featureLines,
  formatCents,
  monthlyPrice,
  periodText,
  plansForLine,
  tierName,
  tierRank,
} from './plan-rules';

const product = (id: string, productLine: string, tier: string, active = true): Product => ({
  id,
  name: `${productLine.toUpperCase()} ${tier}`,
  active,
  productLine,
  tier,
});

const subscription = (over: Partial<Subscription> = {}): Subscription => ({
  id: 'sub_1',
  status: 'active',
  customerId: 'cus_1',
  currentPeriodStart: 1_000,
  currentPeriodEnd: 10_000,
  productName: 'SD1 Tier 2',
  productId: 'prod_sd1_tier2',
  tier: 'tier2',
  amount: 1_900,
  planId: 'price_1',
  cancelAtPeriodEnd: false,
  deviceIds: ['d1'],
  ...over,
});

const price = (over: Partial<Price>): Price => ({
  id: 'price_m',
  productId: 'p',
  active: true,
  currency: 'usd',
  unitAmount: 1_900,
  interval: 'month',
  intervalCount: 1,
  ...over,
});

describe('plan rules', () => {
  it('formats cents in the currency', () => {
    expect(formatCents(1_900, 'usd', 'en-US')).toBe('$19.00');
    expect(formatCents(900, 'eur', 'en-US')).toBe('€9.00');
  });

  it('lists the active paid tiers of the device’s line only, lowest first', () => {
    const products = [
      product('prod_sd1_tier2', 'sd1', 'tier2'),
      product('prod_al30_tier1', 'al30', 'tier1'),
      product('prod_sd1_tier1', 'sd1', 'tier1'),
      product('prod_sd1_old', 'sd1', 'tier1', false),
      { id: 'prod_cellular', name: 'Cellular data service', active: true },
    ];
    expect(plansForLine(products, 'sd1', DEFAULT_TIERS.sd1).map((p) => [p.product.id, p.row.name])).toEqual([
      ['prod_sd1_tier1', 'Tier 1'],
      ['prod_sd1_tier2', 'Tier 2'],
    ]);
  });

  it("takes what each tier unlocks from the line's tiers it is given (the API's table), not the seed", () => {
    const rows = DEFAULT_TIERS.sd1.map((row) =>
      row.tier === 'tier2' ? { ...row, features: { ...row.features, apiMaxRequests: 12_345 } } : row,
    );
    const [, tier2] = plansForLine([product('p1', 'sd1', 'tier1'), product('p2', 'sd1', 'tier2')], 'sd1', rows);
    expect(featureLines(tier2!.row.features)).toContain('12,345 API requests a month');
    expect(currentTier(rows, subscription(), 5_000).features.apiMaxRequests).toBe(12_345);
    expect(tierRank(rows, 'tier2')).toBe(2);
    expect(tierRank(rows, 'tier3')).toBe(-1);
  });

  it('shows the monthly price over the yearly one', () => {
    const yearly = price({ id: 'price_y', interval: 'year', unitAmount: 19_000 });
    expect(monthlyPrice([yearly, price({})], 'price_y')?.id).toBe('price_m');
    expect(monthlyPrice([yearly], 'price_y')?.id).toBe('price_y');
    expect(monthlyPrice([price({ active: false })])).toBeUndefined();
  });

  it('says what a tier unlocks', () => {
    expect(
      featureLines({
        historicalDataAccessDays: 365,
        manualDataDownloadPublicAccessDays: 365,
        manualDataDownloadPermissionedAccessDays: 365,
        apiAccess: true,
        apiMaxRequests: 10_000,
      }),
    ).toEqual(['365 days of history', 'Downloads of the last 365 days', '10,000 API requests a month']);
    expect(
      featureLines({
        historicalDataAccessDays: 7,
        manualDataDownloadPublicAccessDays: null,
        manualDataDownloadPermissionedAccessDays: null,
        apiAccess: false,
        apiMaxRequests: 0,
      }),
    ).toEqual(['7 days of history', 'No downloads', 'No API access']);
  });

  it('takes the tier from a subscription that grants it, else the line’s base tier', () => {
    expect(currentTier(DEFAULT_TIERS.sd1, undefined, 5_000).name).toBe('Tier 0');
    // A tier the platform applies without a subscription (demo data, staff) shows; a paid higher one wins.
    expect(currentTier(DEFAULT_TIERS.sd1, undefined, 5_000, 'tier2').name).toBe('Tier 2');
    expect(currentTier(DEFAULT_TIERS.sd1, subscription(), 5_000, 'tier0').name).toBe(
      currentTier(DEFAULT_TIERS.sd1, subscription(), 5_000).name,
    );
    expect(currentTier(DEFAULT_TIERS.sd1, subscription(), 5_000).name).toBe('Tier 2');
    expect(currentTier(DEFAULT_TIERS.sd1, subscription({ status: 'past_due' }), 5_000).name).toBe('Tier 2');
    // Ended, or canceled: the base tier.
    expect(currentTier(DEFAULT_TIERS.sd1, subscription(), 20_000).name).toBe('Tier 0');
    expect(currentTier(DEFAULT_TIERS.sd1, subscription({ status: 'canceled' }), 5_000).name).toBe('Tier 0');
    expect(currentTier(DEFAULT_TIERS.al30, subscription({ tier: 'tier3' }), 5_000).name).toBe('Tier 3');
  });

  it('shows a granting subscription first, else the latest', () => {
    const old = subscription({ id: 'old', status: 'canceled', currentPeriodStart: 1 });
    const later = subscription({ id: 'later', status: 'canceled', currentPeriodStart: 2 });
    const live = subscription({ id: 'live' });
    expect(currentSubscription([old, live, later], 5_000)?.id).toBe('live');
    expect(currentSubscription([old, later], 5_000)?.id).toBe('later');
    expect(currentSubscription([], 5_000)).toBeUndefined();
  });

  it("says when a period ended, and leaves a running one's next date to the plan's line (one date, written once)", () => {
    const date = (ms: number) => `day ${ms}`;
    expect(periodText(subscription({ status: 'canceled' }), date)).toBe('Ended on day 10000');
    expect(periodText(subscription(), date)).toBeUndefined();
    expect(periodText(subscription({ cancelAtPeriodEnd: true }), date)).toBeUndefined();
    expect(periodText(subscription({ status: 'past_due' }), date)).toBeUndefined();
    expect(periodText(subscription({ status: 'canceled', currentPeriodEnd: undefined }), date)).toBeUndefined();
  });

  it('names a tier without its line', () => {
    expect(tierName('tier2')).toBe('Tier 2');
    expect(tierName(undefined)).toBe('The new tier');
  });

  it('returns from checkout to the web app with the device and Stripe’s session placeholder', () => {
    expect(checkoutReturns('https://app.example', 'dev 1')).toEqual({
      successUrl: 'https://app.example/billing/return?device=dev%201&session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://app.example/billing/return?device=dev%201&cancelled=1',
    });
  });
});
