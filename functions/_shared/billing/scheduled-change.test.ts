import type Stripe from 'stripe';
import { scheduledChangeOf } from './scheduled-change';

const product = (id: string, name: string, productLine?: string) =>
  ({ id, name, metadata: productLine ? { productLine } : {} }) as unknown as Stripe.Product;

const phase = (start: number, end: number, products: Stripe.Product[]) =>
  ({
    start_date: start,
    end_date: end,
    items: products.map((p) => ({ price: { id: `price_${p.id}`, product: p }, quantity: 1 })),
  }) as unknown as Stripe.SubscriptionSchedule.Phase;

const TIER2 = product('prod_sd1_tier2', 'SD1 Tier 2', 'sd1');
const TIER1 = product('prod_sd1_tier1', 'SD1 Tier 1', 'sd1');
const CELLULAR = product('prod_cellular', 'Cellular data service');

const schedule = (over: Partial<Stripe.SubscriptionSchedule> = {}) =>
  ({
    status: 'active',
    current_phase: { start_date: 100, end_date: 200 },
    phases: [phase(100, 200, [TIER2]), phase(200, 300, [TIER1])],
    ...over,
  }) as unknown as Stripe.SubscriptionSchedule;

describe('scheduledChangeOf: what the next phase does to a device', () => {
  it("names the next phase's product for the device's item, and when it starts (ms)", () => {
    expect(scheduledChangeOf(schedule(), TIER2.id, 'sd1')).toEqual({
      scheduledProductId: TIER1.id,
      scheduledProductName: 'SD1 Tier 1',
      scheduledAt: 200_000,
    });
  });

  it("picks the item of the device's line beside the cellular service", () => {
    const both = schedule({ phases: [phase(100, 200, [TIER2, CELLULAR]), phase(200, 300, [TIER1, CELLULAR])] });
    expect(scheduledChangeOf(both, TIER2.id, 'sd1')?.scheduledProductId).toBe(TIER1.id);
  });

  it('is nothing when the running phase is the last, the product stays, or the schedule no longer runs', () => {
    expect(scheduledChangeOf(schedule({ current_phase: { start_date: 200, end_date: 300 } }), TIER1.id, 'sd1')).toBe(
      undefined,
    );
    expect(
      scheduledChangeOf(schedule({ phases: [phase(100, 200, [TIER2]), phase(200, 300, [TIER2])] }), TIER2.id, 'sd1'),
    ).toBeUndefined();
    expect(scheduledChangeOf(schedule({ status: 'released' }), TIER2.id, 'sd1')).toBeUndefined();
    expect(scheduledChangeOf(undefined, TIER2.id, 'sd1')).toBeUndefined();
  });
});
