import * as z from 'zod';
import { PRODUCT_LINES, type ProductLine } from '../contracts/shapes';
import { MESSAGES } from '../messages';
import { PRODUCT_LINE_NAMES } from '../text/product-words';
import { DEFAULT_TIERS, type TierFeatures, type TierId, type TierRow, type TierTable } from './tiers';

/**
 * Tier features as data (docs/sensor-data.md, "Tier features as data"): administrators change what each tier
 * gives without a deploy, through one system parameter holding the whole table. Only the features are theirs:
 * which tiers a line has, and their names, stay as the seed (tiers.ts) says.
 */

/** The system parameter's id. Absent: the seed (DEFAULT_TIERS) applies. */
export const TIER_FEATURES_PARAMETER = 'tier-features';

/** Ten years: far beyond any tier, and a bound on what a typo can open. */
export const MAX_TIER_DAYS = 3650;

/** Each feature as the editor and the messages name it. */
export const FEATURE_LABELS: Record<keyof TierFeatures, string> = {
  historicalDataAccessDays: 'history days',
  manualDataDownloadPublicAccessDays: 'public download days',
  manualDataDownloadPermissionedAccessDays: 'permissioned download days',
  apiAccess: 'API access',
  apiMaxRequests: 'API requests a month',
};

const FEATURE_KEYS = Object.keys(FEATURE_LABELS) as (keyof TierFeatures)[];

/** The stored value: per product line, per tier id, that tier's features. */
export type TierFeaturesValue = Record<ProductLine, Partial<Record<TierId, TierFeatures>>>;

const at = (line: ProductLine, row: Pick<TierRow, 'name'>) => `${PRODUCT_LINE_NAMES[line]} ${row.name}`;

const unknownKeys =
  (where: string, otherwise = MESSAGES.tierFeatureMissing(where)) =>
  (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? MESSAGES.tierFeatureUnknown(where, issue.keys ?? []) : otherwise;

const featuresSchema = (line: ProductLine, row: TierRow) => {
  const where = at(line, row);
  const days = (feature: keyof TierFeatures, orNone: boolean) => {
    const message = MESSAGES.tierFeatureDays(where, FEATURE_LABELS[feature], MAX_TIER_DAYS, orNone);
    return z.number({ error: message }).int(message).min(0, message).max(MAX_TIER_DAYS, message);
  };
  const requests = MESSAGES.tierFeatureRequests(where);
  return z.strictObject(
    {
      historicalDataAccessDays: days('historicalDataAccessDays', false),
      manualDataDownloadPublicAccessDays: days('manualDataDownloadPublicAccessDays', true).nullable(),
      manualDataDownloadPermissionedAccessDays: days('manualDataDownloadPermissionedAccessDays', true).nullable(),
      apiAccess: z.boolean({ error: MESSAGES.tierFeatureFlag(where) }),
      apiMaxRequests: z.number({ error: requests }).int(requests).min(0, requests),
    },
    { error: unknownKeys(where) },
  );
};

const lineSchema = (line: ProductLine) =>
  z.strictObject(Object.fromEntries(DEFAULT_TIERS[line].map((row) => [row.tier, featuresSchema(line, row)])), {
    error: unknownKeys(PRODUCT_LINE_NAMES[line]),
  });

/** A feature's worth, to compare tiers: no downloads below any days, no API below API. */
const worth = (value: TierFeatures[keyof TierFeatures]) =>
  value === null ? -1 : typeof value === 'boolean' ? Number(value) : value;

const shown = (value: TierFeatures[keyof TierFeatures]) =>
  value === null ? 'no downloads' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);

/**
 * The whole table, validated: every line with each of its tiers, days whole numbers from 0 to 3650 (null: no
 * downloads), API requests 0 without API access, and a higher tier never giving less than a lower one on its
 * line. Each refusal names the line, the tier and the feature.
 */
export const TierFeaturesTable = z
  .strictObject(Object.fromEntries(PRODUCT_LINES.map((line) => [line, lineSchema(line)])), {
    error: unknownKeys('The tier table', MESSAGES.tierFeaturesNotTable),
  })
  .superRefine((value, context) => {
    const table = value as TierFeaturesValue;
    for (const line of PRODUCT_LINES) {
      const rows = DEFAULT_TIERS[line];
      rows.forEach((row, i) => {
        const features = table[line][row.tier]!;
        if (!features.apiAccess && features.apiMaxRequests !== 0) {
          context.addIssue({
            code: 'custom',
            path: [line, row.tier, 'apiMaxRequests'],
            message: MESSAGES.tierFeatureNoApi(at(line, row)),
          });
        }
        const lower = rows[i - 1];
        if (!lower) return;
        const below = table[line][lower.tier]!;
        for (const key of FEATURE_KEYS) {
          if (worth(features[key]) >= worth(below[key])) continue;
          context.addIssue({
            code: 'custom',
            path: [line, row.tier, key],
            message: MESSAGES.tierFeatureLess(
              PRODUCT_LINE_NAMES[line],
              row.name,
              lower.name,
              FEATURE_LABELS[key],
              shown(below[key]),
              shown(features[key]),
            ),
          });
        }
      });
    }
  }) as unknown as z.ZodType<TierFeaturesValue>;

/** The first reason a table is refused, or undefined when it is valid. */
export const tierFeaturesProblem = (value: unknown): string | undefined => {
  const result = TierFeaturesTable.safeParse(value);
  return result.success ? undefined : result.error.issues.map((issue) => issue.message).join('; ');
};

/** The rows of every line with a valid stored value's features (ids, names and `chosen` from the seed). */
export const tierTableOf = (value: TierFeaturesValue): TierTable =>
  Object.fromEntries(
    PRODUCT_LINES.map((line) => [
      line,
      DEFAULT_TIERS[line].map((row) => ({ ...row, features: { ...(value[line][row.tier] ?? row.features) } })),
    ]),
  ) as unknown as TierTable;

/** A table as the parameter stores it. */
export const tierFeaturesValueOf = (table: TierTable): TierFeaturesValue =>
  Object.fromEntries(
    PRODUCT_LINES.map((line) => [line, Object.fromEntries(table[line].map((row) => [row.tier, { ...row.features }]))]),
  ) as TierFeaturesValue;

/** The table as the API lists it (GET /system/tier-features, GET /sensor-data/tiers), as the parameter stores it. */
export const tierFeaturesValueOfLines = (
  productLines: readonly { productLine: ProductLine; tiers: readonly Pick<TierRow, 'tier' | 'features'>[] }[],
): TierFeaturesValue =>
  Object.fromEntries(
    productLines.map(({ productLine, tiers }) => [
      productLine,
      Object.fromEntries(tiers.map((row) => [row.tier, { ...row.features }])),
    ]),
  ) as TierFeaturesValue;

/**
 * The table a stored parameter value says: the seed when there is none, and when it is invalid (then `problem`
 * says why, for the reader to log: a bad table must not close or open every device's data).
 */
export const readTierTable = (stored: unknown): { table: TierTable; stored: boolean; problem?: string } => {
  if (stored === undefined) return { table: DEFAULT_TIERS, stored: false };
  const result = TierFeaturesTable.safeParse(stored);
  if (!result.success) {
    return {
      table: DEFAULT_TIERS,
      stored: false,
      problem: result.error.issues.map((issue) => issue.message).join('; '),
    };
  }
  return { table: tierTableOf(result.data), stored: true };
};
