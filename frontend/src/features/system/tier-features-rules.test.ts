import type { TierFeaturesSettings } from '../../../../shared/contracts/system';
import { tierFeaturesValueOf } from '../../../../shared/sensor-data/tier-features';
import { DEFAULT_TIERS } from '../../../../shared/sensor-data/tiers';
import { draftOf, featuresOf, tableToSave, withCell } from './tier-features-rules';

const saved: TierFeaturesSettings['productLines'] = (['sd1', 'al30', 'al60', 'al80'] as const).map((productLine) => ({
  productLine,
  tiers: DEFAULT_TIERS[productLine].map((row) => ({ ...row, chosen: [...row.chosen] })),
}));

describe('the tier-features editor', () => {
  it('shows a line as text and gives back the same table untouched', () => {
    const draft = draftOf(saved[0]!);
    expect(draft[0]).toEqual({
      tier: 'tier0',
      name: 'Tier 0',
      historicalDataAccessDays: '7',
      manualDataDownloadPublicAccessDays: null,
      manualDataDownloadPermissionedAccessDays: null,
      apiAccess: false,
      apiMaxRequests: '0',
    });
    expect(tableToSave(saved, { sd1: draft })).toEqual({ ok: true, value: tierFeaturesValueOf(DEFAULT_TIERS) });
  });

  it("saves one line's edits and the other lines as saved", () => {
    const sd1 = withCell(draftOf(saved[0]!), 'tier2', 'apiMaxRequests', ' 12345 ');
    const result = tableToSave(saved, { sd1 });
    expect(result.ok && result.value.sd1.tier2!.apiMaxRequests).toBe(12_345);
    expect(result.ok && result.value.al30).toEqual(tierFeaturesValueOf(DEFAULT_TIERS).al30);
  });

  it('turns API requests to 0 when API access is turned off, and downloads off as null', () => {
    let draft = withCell(draftOf(saved[0]!), 'tier1', 'apiAccess', false);
    draft = withCell(draft, 'tier1', 'manualDataDownloadPublicAccessDays', null);
    const parsed = featuresOf('sd1', draft);
    expect(parsed.ok && parsed.tiers[1]!.features).toMatchObject({
      apiAccess: false,
      apiMaxRequests: 0,
      manualDataDownloadPublicAccessDays: null,
    });
  });

  it('refuses text that is not a whole number, naming the cell as the API would', () => {
    expect(featuresOf('sd1', withCell(draftOf(saved[0]!), 'tier1', 'historicalDataAccessDays', '3.5'))).toEqual({
      ok: false,
      error: 'SD1 Tier 1: history days must be a whole number from 0 to 3650',
    });
    expect(
      featuresOf('al30', withCell(draftOf(saved[1]!), 'free', 'manualDataDownloadPermissionedAccessDays', '')),
    ).toEqual({
      ok: false,
      error: 'AL30 Free: permissioned download days must be a whole number from 0 to 3650, or null for no downloads',
    });
    expect(featuresOf('sd1', withCell(draftOf(saved[0]!), 'tier2', 'apiMaxRequests', 'lots'))).toEqual({
      ok: false,
      error: 'SD1 Tier 2: API requests a month must be a whole number, 0 or more',
    });
  });
});
