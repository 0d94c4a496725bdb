import { PRODUCT_LINES } from '../contracts/devices';
import {
  AL_TIERS,
  baseTier,
  DEFAULT_TIERS,
  SD1_TIERS,
  TIER_NAMES,
  type TierFeatures,
  tierFromProductName,
  tierRow,
  unlockingTier,
} from './tiers';

describe('the tier table', () => {
  it("holds spec §9's cells", () => {
    const sd1 = Object.fromEntries(SD1_TIERS.map((row) => [row.name, row.features]));
    expect(sd1['Tier 0']).toMatchObject({
      historicalDataAccessDays: 7,
      manualDataDownloadPermissionedAccessDays: null,
      apiAccess: false,
    });
    expect(sd1['Tier 1']).toMatchObject({
      manualDataDownloadPermissionedAccessDays: 30,
      apiAccess: true,
      apiMaxRequests: 3_000,
    });
    expect(sd1['Tier 2']).toMatchObject({ historicalDataAccessDays: 365, apiMaxRequests: 10_000 });
    const al = Object.fromEntries(AL_TIERS.map((row) => [row.name, row.features]));
    expect(al.Free).toMatchObject({
      historicalDataAccessDays: 7,
      manualDataDownloadPublicAccessDays: null,
      apiAccess: false,
    });
    expect(al['Tier 1']).toMatchObject({ historicalDataAccessDays: 7, apiAccess: false });
    expect(al['Tier 1']!.manualDataDownloadPermissionedAccessDays).not.toBeNull();
    expect(al['Tier 2']).toMatchObject({ historicalDataAccessDays: 30, apiMaxRequests: 3_000 });
    expect(al['Tier 3']).toMatchObject({ historicalDataAccessDays: 365, apiMaxRequests: 10_000 });
  });

  it.each(PRODUCT_LINES)('never gives less in a higher tier of %s', (line) => {
    const days = (v: number | null) => v ?? -1;
    const rows = DEFAULT_TIERS[line];
    for (let i = 1; i < rows.length; i++) {
      const [lower, higher] = [rows[i - 1]!.features, rows[i]!.features];
      for (const key of Object.keys(lower) as (keyof TierFeatures)[]) {
        const [a, b] = [lower[key], higher[key]];
        if (typeof a === 'boolean') expect(Number(b)).toBeGreaterThanOrEqual(Number(a));
        else expect(days(b as number | null)).toBeGreaterThanOrEqual(days(a));
      }
    }
  });

  it('falls back to the base tier for no tier or a tier the line does not sell', () => {
    expect(tierRow(DEFAULT_TIERS.sd1, undefined).name).toBe('Tier 0');
    expect(tierRow(DEFAULT_TIERS.al60, 'tier0').name).toBe('Free');
    expect(tierRow(DEFAULT_TIERS.sd1, 'tier3').name).toBe('Tier 0');
    expect(tierRow(DEFAULT_TIERS.al80, 'tier3').name).toBe('Tier 3');
    expect(baseTier(DEFAULT_TIERS.al30).tier).toBe('free');
  });

  it('answers from the rows it is given, not the seed', () => {
    const rows = SD1_TIERS.map((row) =>
      row.tier === 'tier1' ? { ...row, features: { ...row.features, historicalDataAccessDays: 90 } } : row,
    );
    expect(tierRow(rows, 'tier1').features.historicalDataAccessDays).toBe(90);
    expect(unlockingTier(rows, (f) => f.historicalDataAccessDays >= 60)?.name).toBe('Tier 1');
    expect(unlockingTier(SD1_TIERS, (f) => f.historicalDataAccessDays >= 60)?.name).toBe('Tier 2');
  });

  it('names the lowest tier that grants a feature, or none', () => {
    expect(unlockingTier(DEFAULT_TIERS.sd1, (f) => f.historicalDataAccessDays >= 100)?.name).toBe('Tier 2');
    expect(unlockingTier(DEFAULT_TIERS.al30, (f) => f.apiAccess)?.name).toBe('Tier 2');
    expect(unlockingTier(DEFAULT_TIERS.al30, (f) => f.manualDataDownloadPublicAccessDays !== null)?.name).toBe(
      'Tier 1',
    );
    expect(unlockingTier(DEFAULT_TIERS.sd1, (f) => f.historicalDataAccessDays > 365)).toBeUndefined();
  });

  it("names every tier as the seed's rows do", () => {
    for (const row of [...SD1_TIERS, ...AL_TIERS]) expect(TIER_NAMES[row.tier]).toBe(row.name);
  });

  it("infers the tier from a product's name (spec §4)", () => {
    expect(tierFromProductName('sd1', 'SD1 Tier 2 yearly')).toBe('tier2');
    expect(tierFromProductName('sd1', 'SD1 Tier 1')).toBe('tier1');
    expect(tierFromProductName('al30', 'AL Tier 3')).toBe('tier3');
    expect(tierFromProductName('al30', 'Cellular data service')).toBe('free');
  });
});
