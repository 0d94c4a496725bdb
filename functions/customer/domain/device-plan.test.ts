import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';
import { currentPlan } from './device-plan';

const NOW = Date.UTC(2026, 10, 10, 12, 30);
const DAY = 86_400_000;

const plan = (id: string, over: Partial<DeviceSubscriptionRecord> = {}): DeviceSubscriptionRecord => ({
  deviceId: 'dev-1',
  id,
  status: 'active',
  customerId: 'cus_1',
  tier: 'tier1',
  productId: 'prod_sd1_tier1',
  productName: 'SD1 Tier 1',
  planId: 'price_1',
  amount: 900,
  cancelAtPeriodEnd: false,
  currentPeriodStart: NOW - 10 * DAY,
  currentPeriodEnd: NOW + 20 * DAY,
  syncedAt: NOW - DAY,
  updated: NOW - DAY,
  ...over,
});

describe('currentPlan: which subscription a device record holds', () => {
  it('prefers a plan that grants a tier over a later-read cancelled one', () => {
    const kept = plan('sub_b', { tier: 'tier2', syncedAt: NOW - 2 * DAY });
    expect(currentPlan([plan('sub_a', { status: 'canceled', syncedAt: NOW }), kept], NOW)).toBe(kept);
  });

  it('of two granting plans takes the higher tier, then the later period', () => {
    const high = plan('sub_high', { tier: 'tier2', currentPeriodStart: NOW - 20 * DAY });
    const later = plan('sub_later', { currentPeriodStart: NOW - DAY });
    expect(currentPlan([later, high], NOW)).toBe(high);
    const earlier = plan('sub_earlier', { currentPeriodStart: NOW - 5 * DAY });
    expect(currentPlan([earlier, later], NOW)).toBe(later);
  });

  it('counts a plan whose period has ended as not granting', () => {
    const ended = plan('sub_ended', { tier: 'tier2', currentPeriodEnd: NOW - 1, syncedAt: NOW - 3 * DAY });
    const trial = plan('sub_trial', { status: 'trialing', syncedAt: NOW - 4 * DAY });
    expect(currentPlan([ended, trial], NOW)).toBe(trial);
  });

  it('when nothing grants, the last read, so the page shows how the plan ended; none at all, none', () => {
    const last = plan('sub_last', { status: 'canceled', syncedAt: NOW });
    expect(currentPlan([plan('sub_old', { status: 'unpaid', syncedAt: NOW - DAY }), last], NOW)).toBe(last);
    expect(currentPlan([], NOW)).toBeUndefined();
  });
});
