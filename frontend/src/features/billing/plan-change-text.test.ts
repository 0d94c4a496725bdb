import type { Product, Subscription } from '../../../../shared/contracts/api-subscriptions';
import { formatDay, planChoices, tierLabel, whatHappens, withoutShownUpgrades } from './plan-change-text';

const END = Date.UTC(2026, 11, 12, 10, 0);
const day = (ms: number) => formatDay(ms, 'UTC');

const plan = (over: Partial<Subscription> = {}) =>
  ({
    status: 'active',
    tier: 'tier2',
    currentPeriodEnd: END,
    cancelAtPeriodEnd: false,
    ...over,
  }) as Subscription;

const product = (line: string, tier: string, active = true): Product => ({
  id: `prod_${line}_${tier}`,
  name: `${line.toUpperCase()} ${tierLabel(tier)}`,
  active,
  productLine: line,
  tier,
});

const SD1 = [product('sd1', 'tier1'), product('sd1', 'tier2')];
const AL30 = [product('al30', 'tier1'), product('al30', 'tier2'), product('al30', 'tier3'), product('al60', 'tier1')];

describe('whatHappens: the plan in plain words', () => {
  it('a running plan renews at the period end', () => {
    expect(whatHappens(plan(), 'sd1', day)).toBe('Renews on 12 Dec 2026');
  });

  it('a scheduled downgrade names the tier until the date and the tier after', () => {
    expect(whatHappens(plan({ tier: 'tier3', scheduledTier: 'tier2', scheduledAt: END }), 'al30', day)).toBe(
      'Tier 3 until 12 Dec 2026, then Tier 2',
    );
  });

  it("a cancellation ends at the period end, then the line's base tier", () => {
    expect(whatHappens(plan({ cancelAtPeriodEnd: true }), 'sd1', day)).toBe('Ends on 12 Dec 2026, then Tier 0');
    expect(whatHappens(plan({ cancelAtPeriodEnd: true }), 'al80', day)).toBe('Ends on 12 Dec 2026, then the free tier');
  });

  it('says nothing of a plan that no longer runs or has no period', () => {
    expect(whatHappens(plan({ status: 'canceled' }), 'sd1', day)).toBeUndefined();
    expect(whatHappens(plan({ currentPeriodEnd: undefined }), 'sd1', day)).toBeUndefined();
  });

  it('past due still runs: it renews', () => {
    expect(whatHappens(plan({ status: 'past_due' }), 'sd1', day)).toBe('Renews on 12 Dec 2026');
  });
});

describe('planChoices: what the device page offers', () => {
  const labels = (choices: ReturnType<typeof planChoices>) => choices.map((choice) => choice.label);

  it('Tier 1 of SD1: upgrade to Tier 2 (charged now), or cancel', () => {
    const choices = planChoices(plan({ tier: 'tier1' }), SD1, 'sd1', day);
    expect(labels(choices)).toEqual(['Upgrade to Tier 2', 'Cancel at period end']);
    expect(choices[0]).toMatchObject({ kind: 'upgrade', product: { id: 'prod_sd1_tier2' } });
    expect((choices[0] as { note: string }).note).toContain('prorated difference');
  });

  it('offers no upgrade to the tier the page shows already (the record of an upgrade landing before its plan is read)', () => {
    const choices = planChoices(plan({ tier: 'tier1' }), SD1, 'sd1', day);
    expect(labels(withoutShownUpgrades(choices, 'tier1'))).toEqual(['Upgrade to Tier 2', 'Cancel at period end']);
    expect(labels(withoutShownUpgrades(choices, undefined))).toEqual(['Upgrade to Tier 2', 'Cancel at period end']);
    expect(labels(withoutShownUpgrades(choices, 'tier2'))).toEqual(['Cancel at period end']);
  });

  it('Tier 2 of AL30: upgrade to Tier 3, switch to a lower tier from the period end, cancel; only its own line', () => {
    expect(labels(planChoices(plan(), AL30, 'al30', day))).toEqual([
      'Upgrade to Tier 3',
      'Switch to Tier 1 from 12 Dec 2026',
      'Cancel at period end',
    ]);
  });

  it('with a downgrade scheduled: not that one again, and "Keep" undoes it', () => {
    expect(labels(planChoices(plan({ tier: 'tier3', scheduledTier: 'tier2' }), AL30, 'al30', day))).toEqual([
      'Switch to Tier 1 from 12 Dec 2026',
      'Cancel at period end',
      'Keep Tier 3',
    ]);
  });

  it('cancelling: no second cancel, and "Keep" resumes', () => {
    expect(labels(planChoices(plan({ cancelAtPeriodEnd: true }), SD1, 'sd1', day))).toEqual([
      'Switch to Tier 1 from 12 Dec 2026',
      'Keep Tier 2',
    ]);
  });

  it('skips products not on sale, and offers nothing for a plan that has ended', () => {
    expect(labels(planChoices(plan({ tier: 'tier1' }), [SD1[0]!, product('sd1', 'tier2', false)], 'sd1', day))).toEqual(
      ['Cancel at period end'],
    );
    expect(planChoices(plan({ status: 'canceled' }), SD1, 'sd1', day)).toEqual([]);
  });
});
