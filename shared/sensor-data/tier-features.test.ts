import { PRODUCT_LINES } from '../contracts/devices';
import {
  readTierTable,
  TierFeaturesTable,
  type TierFeaturesValue,
  tierFeaturesProblem,
  tierFeaturesValueOf,
  tierTableOf,
} from './tier-features';
import { DEFAULT_TIERS } from './tiers';

/** The seed as the parameter would store it, to change one cell of. */
const seed = (): TierFeaturesValue => structuredClone(tierFeaturesValueOf(DEFAULT_TIERS));

describe('the tier-features table', () => {
  it('takes the seed as it is, and gives back its rows', () => {
    expect(tierFeaturesProblem(seed())).toBeUndefined();
    expect(tierTableOf(TierFeaturesTable.parse(seed()))).toEqual(DEFAULT_TIERS);
  });

  it('takes a changed cell that keeps the order, and every line gets its own rows', () => {
    const value = seed();
    value.al60.tier1!.historicalDataAccessDays = 14;
    expect(tierFeaturesProblem(value)).toBeUndefined();
    const table = tierTableOf(value);
    expect(table.al60[1]!.features.historicalDataAccessDays).toBe(14);
    // The AL lines share the seed's rows; a change to one line is not a change to the others.
    expect(table.al30[1]!.features.historicalDataAccessDays).toBe(7);
    expect(table.al60.map((row) => row.name)).toEqual(['Free', 'Tier 1', 'Tier 2', 'Tier 3']);
  });

  it('refuses a higher tier giving less than a lower one, naming line, tiers and feature', () => {
    const value = seed();
    value.sd1.tier1!.historicalDataAccessDays = 5;
    expect(tierFeaturesProblem(value)).toBe(
      "SD1 Tier 1: history days (5) is less than Tier 0's (7); a higher tier never gives less than a lower one",
    );
    const downloads = seed();
    downloads.al30.tier2!.manualDataDownloadPublicAccessDays = null;
    expect(tierFeaturesProblem(downloads)).toMatch(
      /^AL30 Tier 2: public download days \(no downloads\) is less than Tier 1's \(7\)/,
    );
    const api = seed();
    api.sd1.tier2 = { ...api.sd1.tier2!, apiAccess: false, apiMaxRequests: 0 };
    expect(tierFeaturesProblem(api)).toMatch(/SD1 Tier 2: API access \(no\) is less than Tier 1's \(yes\)/);
  });

  it.each([
    ['historicalDataAccessDays', 3651, 'SD1 Tier 0: history days must be a whole number from 0 to 3650'],
    ['historicalDataAccessDays', 2.5, 'SD1 Tier 0: history days must be a whole number from 0 to 3650'],
    ['historicalDataAccessDays', null, 'SD1 Tier 0: history days must be a whole number from 0 to 3650'],
    [
      'manualDataDownloadPublicAccessDays',
      -1,
      'SD1 Tier 0: public download days must be a whole number from 0 to 3650, or null for no downloads',
    ],
    ['apiMaxRequests', -5, 'SD1 Tier 0: API requests a month must be a whole number, 0 or more'],
    ['apiMaxRequests', 10, 'SD1 Tier 0: API requests a month must be 0 without API access'],
    ['apiAccess', 'yes', 'SD1 Tier 0: API access must be true or false'],
  ])('refuses %s = %p with a message naming the cell', (feature, cell, message) => {
    const value = seed();
    (value.sd1.tier0 as unknown as Record<string, unknown>)[feature] = cell;
    expect(tierFeaturesProblem(value)).toContain(message);
  });

  it('refuses a missing line or tier, a tier the line does not have, and an unknown feature', () => {
    const noLine = seed() as Partial<TierFeaturesValue>;
    delete noLine.al80;
    expect(tierFeaturesProblem(noLine)).toBe('AL80 is missing: every product line needs each of its tiers');
    const noTier = seed();
    delete noTier.sd1.tier2;
    expect(tierFeaturesProblem(noTier)).toBe('SD1 Tier 2 is missing: every product line needs each of its tiers');
    const extraTier = seed();
    extraTier.sd1.tier3 = extraTier.al30.tier3;
    expect(tierFeaturesProblem(extraTier)).toBe('SD1: tier3 is not part of the table (lines and tiers are fixed)');
    const extraFeature = seed();
    (extraFeature.al30.free as unknown as Record<string, unknown>).colour = 'red';
    expect(tierFeaturesProblem(extraFeature)).toBe(
      'AL30 Free: colour is not part of the table (lines and tiers are fixed)',
    );
    expect(tierFeaturesProblem([1, 2])).toMatch(/^The tier table must be an object with each product line/);
  });
});

describe('reading the stored table', () => {
  it('is the seed when nothing is stored', () => {
    expect(readTierTable(undefined)).toEqual({ table: DEFAULT_TIERS, stored: false });
  });

  it('is the stored table when it is valid', () => {
    const value = seed();
    value.sd1.tier0!.historicalDataAccessDays = 3;
    const { table, stored, problem } = readTierTable(value);
    expect(stored).toBe(true);
    expect(problem).toBeUndefined();
    expect(table.sd1[0]!.features.historicalDataAccessDays).toBe(3);
    for (const line of PRODUCT_LINES)
      expect(table[line].map((r) => r.tier)).toEqual(DEFAULT_TIERS[line].map((r) => r.tier));
  });

  it('falls back to the seed, saying why, when the stored value is invalid', () => {
    const { table, stored, problem } = readTierTable({ sd1: 'everything' });
    expect(table).toBe(DEFAULT_TIERS);
    expect(stored).toBe(false);
    expect(problem).toMatch(/SD1/);
  });
});
