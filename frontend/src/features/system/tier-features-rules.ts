import type { ProductLine } from '../../../../shared/contracts/devices';
import type { TierFeaturesSettings } from '../../../../shared/contracts/system';
import { MESSAGES } from '../../../../shared/messages';
import {
  FEATURE_LABELS,
  MAX_TIER_DAYS,
  type TierFeaturesValue,
  tierFeaturesValueOfLines,
} from '../../../../shared/sensor-data/tier-features';
import type { TierFeatures, TierId } from '../../../../shared/sensor-data/tiers';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';

/**
 * The tier-features editor's rules, without React: a line's tiers as the fields show them (text while typed),
 * and back into the table PUT /system/tier-features takes. The API validates the whole table (order between
 * tiers too); here only what cannot be sent at all (text that is not a whole number) is refused, in its words.
 */

/** One tier's cells as typed. Downloads `null`: "no downloads" ticked. */
export interface TierDraft {
  tier: TierId;
  name: string;
  historicalDataAccessDays: string;
  manualDataDownloadPublicAccessDays: string | null;
  manualDataDownloadPermissionedAccessDays: string | null;
  apiAccess: boolean;
  apiMaxRequests: string;
}

export type LineDraft = TierDraft[];
export type LineSettings = TierFeaturesSettings['productLines'][number];

const text = (value: number | null) => (value === null ? null : String(value));

export const draftOf = (line: LineSettings): LineDraft =>
  line.tiers.map(({ tier, name, features }) => ({
    tier,
    name,
    historicalDataAccessDays: String(features.historicalDataAccessDays),
    manualDataDownloadPublicAccessDays: text(features.manualDataDownloadPublicAccessDays),
    manualDataDownloadPermissionedAccessDays: text(features.manualDataDownloadPermissionedAccessDays),
    apiAccess: features.apiAccess,
    apiMaxRequests: String(features.apiMaxRequests),
  }));

/** A change to one cell; turning API access off makes its requests 0, as the table requires. */
export const withCell = <K extends keyof Omit<TierDraft, 'tier' | 'name'>>(
  draft: LineDraft,
  tier: TierId,
  key: K,
  value: TierDraft[K],
): LineDraft =>
  draft.map((row) =>
    row.tier !== tier
      ? row
      : { ...row, [key]: value, ...(key === 'apiAccess' && value === false ? { apiMaxRequests: '0' } : {}) },
  );

const WHOLE = /^\d+$/;

/** A line's draft as features, or the message saying which cell is not a whole number. */
export const featuresOf = (
  productLine: ProductLine,
  draft: LineDraft,
): { ok: true; tiers: { tier: TierId; features: TierFeatures }[] } | { ok: false; error: string } => {
  const tiers: { tier: TierId; features: TierFeatures }[] = [];
  type DayKey =
    | 'historicalDataAccessDays'
    | 'manualDataDownloadPublicAccessDays'
    | 'manualDataDownloadPermissionedAccessDays';
  const DAY_KEYS: DayKey[] = [
    'historicalDataAccessDays',
    'manualDataDownloadPublicAccessDays',
    'manualDataDownloadPermissionedAccessDays',
  ];
  for (const row of draft) {
    const at = `${PRODUCT_LINE_NAMES[productLine]} ${row.name}`;
    const days: Partial<Record<DayKey, number | null>> = {};
    for (const key of DAY_KEYS) {
      const typed = row[key];
      // Only the download cells may be "no downloads"; history always has days.
      if (typed === null && key !== 'historicalDataAccessDays') {
        days[key] = null;
      } else if (typed !== null && WHOLE.test(typed.trim())) {
        days[key] = Number(typed.trim());
      } else {
        const orNone = key !== 'historicalDataAccessDays';
        return { ok: false, error: MESSAGES.tierFeatureDays(at, FEATURE_LABELS[key], MAX_TIER_DAYS, orNone) };
      }
    }
    if (!WHOLE.test(row.apiMaxRequests.trim())) return { ok: false, error: MESSAGES.tierFeatureRequests(at) };
    tiers.push({
      tier: row.tier,
      features: {
        historicalDataAccessDays: days.historicalDataAccessDays!,
        manualDataDownloadPublicAccessDays: days.manualDataDownloadPublicAccessDays ?? null,
        manualDataDownloadPermissionedAccessDays: days.manualDataDownloadPermissionedAccessDays ?? null,
        apiAccess: row.apiAccess,
        apiMaxRequests: Number(row.apiMaxRequests.trim()),
      },
    });
  }
  return { ok: true, tiers };
};

/**
 * The table to PUT: the saved table with the given lines' drafts in place of theirs (Save of one line leaves the
 * others' unsaved edits out), or the first cell that cannot be sent.
 */
export const tableToSave = (
  saved: TierFeaturesSettings['productLines'],
  drafts: Partial<Record<ProductLine, LineDraft>>,
): { ok: true; value: TierFeaturesValue } | { ok: false; error: string } => {
  const lines: { productLine: ProductLine; tiers: { tier: TierId; features: TierFeatures }[] }[] = [];
  for (const line of saved) {
    const draft = drafts[line.productLine];
    if (!draft) {
      lines.push(line);
      continue;
    }
    const parsed = featuresOf(line.productLine, draft);
    if (!parsed.ok) return parsed;
    lines.push({ productLine: line.productLine, tiers: parsed.tiers });
  }
  return { ok: true, value: tierFeaturesValueOfLines(lines) };
};
