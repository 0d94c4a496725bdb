import type { Price, Product } from '../../../../shared/contracts/api-subscriptions';
import { itemInWords, quantityChoosable } from './cart-item-words';
import {
  cartReturns,
  cellularProduct,
  chargedPrice,
  intervalText,
  itemProblem,
  itemTierText,
  totalsPerInterval,
} from './cart-rules';

const product = (over: Partial<Product> & { id: string }): Product => ({ name: over.id, active: true, ...over });
const price = (over: Partial<Price> & { id: string; unitAmount: number }): Price => ({
  productId: 'p',
  active: true,
  currency: 'usd',
  interval: 'month',
  intervalCount: 1,
  ...over,
});
const device = (access: 'none' | 'view' | 'manage' | 'own', productLine: 'sd1' | 'al30' = 'sd1') => ({
  device: { id: 'dev-1', name: 'Roof', serial: 'S1', productLine, access },
});

describe('cart rules', () => {
  const tier2 = product({ id: 'prod_sd1_tier2', name: 'SD1 Tier 2', productLine: 'sd1', tier: 'tier2' });
  const cellular = product({ id: 'prod_cellular', name: 'Cellular data service' });

  it('finds the cellular data service on sale by its name (spec §5)', () => {
    expect(cellularProduct([tier2, { ...cellular, active: false }])).toBeUndefined();
    expect(cellularProduct([tier2, cellular])?.id).toBe('prod_cellular');
    expect(itemTierText(tier2)).toBe('Tier 2');
    expect(itemTierText(cellular)).toBe('Service');
  });

  it('charges the default price, and reads its interval', () => {
    const prices = [
      price({ id: 'year', unitAmount: 19_000, interval: 'year' }),
      price({ id: 'month', unitAmount: 1_900 }),
    ];
    expect(chargedPrice({ defaultPriceId: 'year' }, prices)?.id).toBe('year');
    expect(chargedPrice({ defaultPriceId: 'gone' }, prices)?.id).toBe('month');
    expect(intervalText(prices[0]!)).toBe('a year');
    expect(intervalText({ interval: 'month', intervalCount: 3 })).toBe('every 3 months');
  });

  it('says why an item cannot be checked out: off sale, a device no longer managed, or another line', () => {
    expect(itemProblem(undefined, device('own'), false)).toBe('No longer on sale');
    expect(itemProblem(tier2, device('view'), false)).toBe('This device is no longer yours to manage');
    expect(itemProblem(tier2, { error: 'Device not found: dev-1' }, false)).toBe(
      'This device is no longer yours to manage',
    );
    expect(itemProblem(tier2, device('view'), true)).toBeUndefined();
    expect(itemProblem(tier2, device('manage', 'al30'), false)).toBe('SD1 Tier 2 is for SD1 devices');
    expect(itemProblem(cellular, device('own', 'al30'), false)).toBeUndefined();
    // The device not read yet: nothing known against it.
    expect(itemProblem(tier2, undefined, false)).toBeUndefined();
  });

  it('offers no quantity for what is bought one per device, and names an item in words, never by its ids', () => {
    expect(quantityChoosable(tier2)).toBe(false);
    expect(quantityChoosable(cellular)).toBe(false);
    expect(quantityChoosable(undefined)).toBe(false);
    expect(quantityChoosable(product({ id: 'prod_sensor_caps', name: 'Spare sensor caps' }))).toBe(true);
    const item = { productId: 'prod_sd1_tier2', deviceId: 'dev-1' };
    expect(itemInWords(item, tier2, device('own'))).toBe('SD1 Tier 2 for Roof');
    expect(itemInWords(item, tier2, { device: { ...device('own').device, name: '' } })).toBe('SD1 Tier 2 for S1');
    expect(itemInWords(item, undefined, undefined)).toBe('A product no longer on sale for device dev-1');
  });

  it('totals each billing interval, quantities included', () => {
    const item = (quantity: number) => ({ productId: 'p', deviceId: 'd', quantity });
    expect(
      totalsPerInterval(
        [
          { item: item(2), price: price({ id: 'a', unitAmount: 1_900 }) },
          { item: item(1), price: price({ id: 'b', unitAmount: 400 }) },
          { item: item(1), price: price({ id: 'c', unitAmount: 19_000, interval: 'year' }) },
          { item: item(1) },
        ],
        'en-US',
      ),
    ).toEqual(['$42.00 a month', '$190.00 a year']);
    // Checkout charges what is sold per device once, whatever the quantity an item was given through the API.
    const monthly = price({ id: 'a', unitAmount: 1_900 });
    expect(totalsPerInterval([{ item: item(3), price: monthly, product: tier2 }], 'en-US')).toEqual(['$19.00 a month']);
    expect(totalsPerInterval([{ item: item(3), price: monthly, product: cellular }], 'en-US')).toEqual([
      '$19.00 a month',
    ]);
  });

  it("returns to the checkout page of the cart, naming each device once, within the URL's limit", () => {
    const returns = cartReturns('https://app.example', [{ deviceId: 'a b' }, { deviceId: 'c' }, { deviceId: 'a b' }]);
    expect(returns).toEqual({
      successUrl: 'https://app.example/billing/return?cart=1&device=a%20b&device=c&session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://app.example/billing/return?cart=1&device=a%20b&device=c&cancelled=1',
    });
    const many = cartReturns(
      'https://app.example',
      Array.from({ length: 49 }, (_, i) => ({ deviceId: `${'x'.repeat(100)}${i}` })),
    );
    expect(many.successUrl.length).toBeLessThanOrEqual(2048);
    expect(many.successUrl.endsWith('&session_id={CHECKOUT_SESSION_ID}')).toBe(true);
  });
});
