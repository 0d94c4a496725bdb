import type { Product } from '../../../../shared/contracts/api-subscriptions';
import { AL_TIERS, DAY_MS, SD1_TIERS, type TierRow } from '../../../../shared/sensor-data/tiers';
import { lockBand, productOfTier } from './lock-band-rules';
import { presetRange } from './range-rules';

const now = Date.UTC(2025, 0, 1);
const viewing = (days: number | null, tiers: readonly TierRow[] = SD1_TIERS) => ({
  tiers: [...tiers],
  windows: {
    view: { days, from: days === null ? null : now - days * DAY_MS },
    download: { days: null, from: null },
    api: { days: null, from: null },
  },
});

describe('lockBand', () => {
  it('shades the part of the range before the window and names the tier that unlocks it', () => {
    const year = presetRange('1y', now);
    expect(lockBand(viewing(7), year, now)).toEqual({
      from: year.from,
      to: now - 7 * DAY_MS,
      label: 'Tier 2 unlocks 365 days',
      unlocks: { tier: 'tier2', name: 'Tier 2' },
    });
    expect(lockBand(viewing(7), presetRange('30d', now), now)).toMatchObject({
      label: 'Tier 1 unlocks 30 days',
      unlocks: { tier: 'tier1' },
    });
  });

  it('has no band inside the window, for a range chosen a moment ago, or without charts', () => {
    expect(lockBand(viewing(7), presetRange('7d', now - 3_000), now)).toBeUndefined();
    expect(lockBand(viewing(365), presetRange('1y', now), now)).toBeUndefined();
    expect(lockBand(viewing(null), presetRange('1y', now), now)).toBeUndefined();
  });

  it('leaves a range wholly before the window alone (the API refuses it), and asks for the tier of the range chosen', () => {
    const old = { from: now - 40 * DAY_MS, to: now - 20 * DAY_MS };
    expect(lockBand(viewing(7), old, now)).toBeUndefined();
    // On the AL lines Tier 1 adds no history: 30 days take Tier 2.
    expect(lockBand(viewing(7, AL_TIERS), presetRange('30d', now - 3_000), now)?.label).toBe('Tier 2 unlocks 30 days');
  });

  it('says when no tier of the line reaches back that far, with nothing to buy', () => {
    const twoYears = { from: now - 730 * DAY_MS, to: now };
    expect(lockBand(viewing(7), twoYears, now)).toEqual({
      from: twoYears.from,
      to: now - 7 * DAY_MS,
      label: 'No tier of this product line reaches that far back',
    });
  });
});

describe('productOfTier', () => {
  const product = (id: string, productLine: string | undefined, tier: string | undefined, active = true): Product => ({
    id,
    name: id,
    active,
    ...(productLine ? { productLine } : {}),
    ...(tier ? { tier } : {}),
  });

  it("finds the active product of the line's tier", () => {
    const products = [
      product('old', 'sd1', 'tier2', false),
      product('al', 'al30', 'tier2'),
      product('cellular', undefined, undefined),
      product('sd1-2', 'sd1', 'tier2'),
    ];
    expect(productOfTier(products, 'sd1', 'tier2')?.id).toBe('sd1-2');
    expect(productOfTier(products, 'sd1', 'tier1')).toBeUndefined();
    expect(productOfTier(products, 'sd1', undefined)).toBeUndefined();
  });
});
