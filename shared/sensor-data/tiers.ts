import type { ProductLine } from '../contracts/devices';

/**
 * Spec §3 tier features, per product line and tier, from the spec §9 table. Cells the spec leaves "not shown"
 * hold values we chose (docs/sensor-data.md explains each): a higher tier never gives less than a lower one.
 * `null` days means the feature is not available at all.
 */
export interface TierFeatures {
  /** How far back charts and reads may look. */
  historicalDataAccessDays: number;
  /** Downloads for guests of a public device (and anyone reaching it only because it is public). */
  manualDataDownloadPublicAccessDays: number | null;
  /** Downloads for people with access to the device (relations, campaigns, staff). */
  manualDataDownloadPermissionedAccessDays: number | null;
  apiAccess: boolean;
  /** Requests per calendar month (UTC) through the public API; 0 without API access. */
  apiMaxRequests: number;
}

export type TierId = 'tier0' | 'free' | 'tier1' | 'tier2' | 'tier3';

export interface TierRow {
  tier: TierId;
  /** As the spec's table names it. */
  name: string;
  features: TierFeatures;
  /** Which cells the spec leaves "not shown" (we chose the value). */
  chosen: (keyof TierFeatures)[];
}

const NONE = { manualDataDownloadPublicAccessDays: null, manualDataDownloadPermissionedAccessDays: null };
const NO_API = { apiAccess: false, apiMaxRequests: 0 };

export const SD1_TIERS: readonly TierRow[] = [
  { tier: 'tier0', name: 'Tier 0', features: { historicalDataAccessDays: 7, ...NONE, ...NO_API }, chosen: [] },
  {
    tier: 'tier1',
    name: 'Tier 1',
    features: {
      // Not shown: between Tier 0's 7 and Tier 2's 365 days, and no shorter than its own 30-day downloads.
      historicalDataAccessDays: 30,
      manualDataDownloadPublicAccessDays: 30,
      manualDataDownloadPermissionedAccessDays: 30,
      apiAccess: true,
      apiMaxRequests: 3_000,
    },
    chosen: ['historicalDataAccessDays'],
  },
  {
    tier: 'tier2',
    name: 'Tier 2',
    features: {
      historicalDataAccessDays: 365,
      // Not shown: as far back as the history it may view.
      manualDataDownloadPublicAccessDays: 365,
      manualDataDownloadPermissionedAccessDays: 365,
      apiAccess: true,
      apiMaxRequests: 10_000,
    },
    chosen: ['manualDataDownloadPublicAccessDays', 'manualDataDownloadPermissionedAccessDays'],
  },
];

export const AL_TIERS: readonly TierRow[] = [
  // "7 days, view only": no downloads, no API.
  { tier: 'free', name: 'Free', features: { historicalDataAccessDays: 7, ...NONE, ...NO_API }, chosen: [] },
  {
    tier: 'tier1',
    name: 'Tier 1',
    features: {
      historicalDataAccessDays: 7,
      // "allowed": downloads of what may be viewed.
      manualDataDownloadPublicAccessDays: 7,
      manualDataDownloadPermissionedAccessDays: 7,
      ...NO_API,
    },
    chosen: [],
  },
  {
    tier: 'tier2',
    name: 'Tier 2',
    features: {
      historicalDataAccessDays: 30,
      manualDataDownloadPublicAccessDays: 30,
      manualDataDownloadPermissionedAccessDays: 30,
      apiAccess: true,
      apiMaxRequests: 3_000,
    },
    chosen: ['manualDataDownloadPublicAccessDays', 'manualDataDownloadPermissionedAccessDays'],
  },
  {
    tier: 'tier3',
    name: 'Tier 3',
    features: {
      historicalDataAccessDays: 365,
      manualDataDownloadPublicAccessDays: 365,
      manualDataDownloadPermissionedAccessDays: 365,
      apiAccess: true,
      apiMaxRequests: 10_000,
    },
    chosen: ['manualDataDownloadPublicAccessDays', 'manualDataDownloadPermissionedAccessDays'],
  },
];

/** Every product line's rows, lowest tier first: the seed below, or what administrators stored (tier-features.ts). */
export type TierTable = Record<ProductLine, readonly TierRow[]>;

/**
 * Spec §9's table, by product line, lowest tier first: the seed. Administrators may change the features without a
 * deploy (the `tier-features` system parameter, shared/sensor-data/tier-features.ts); while none is stored, or the
 * stored one is invalid, this applies. Which tiers exist and their names are fixed here.
 */
export const DEFAULT_TIERS: TierTable = {
  sd1: SD1_TIERS,
  al30: AL_TIERS,
  al60: AL_TIERS,
  al80: AL_TIERS,
};

/** A tier's name as people read it: fixed, so it needs no table (administrators edit features only). */
export const TIER_NAMES: Record<TierId, string> = {
  tier0: 'Tier 0',
  free: 'Free',
  tier1: 'Tier 1',
  tier2: 'Tier 2',
  tier3: 'Tier 3',
};

/** A device without a subscription (or with one not active) has its line's lowest tier. */
export const baseTier = <R extends Pick<TierRow, 'tier'>>(rows: readonly R[]): R => rows[0]!;

/** The row of a tier among a line's rows; a tier the line does not sell falls back to the base tier. */
export const tierRow = <R extends Pick<TierRow, 'tier'>>(rows: readonly R[], tier: string | undefined): R =>
  rows.find((row) => row.tier === tier) ?? baseTier(rows);

/**
 * Spec §4: the tier is inferred from the product name containing 'Tier 1' or 'Tier 2' (and, for AL, 'Tier 3').
 * Only the tiers' ids and names matter here, and those are fixed: the seed answers for any stored table.
 */
export const tierFromProductName = (productLine: ProductLine, productName: string): TierId =>
  [...DEFAULT_TIERS[productLine]]
    .reverse()
    .find((row) => row.tier !== 'tier0' && row.tier !== 'free' && productName.includes(row.name))?.tier ??
  baseTier(DEFAULT_TIERS[productLine]).tier;

/**
 * The lowest of a line's rows that grants what `grants` asks, or undefined when none does: the "which tier
 * unlocks it" of a 403.
 */
export const unlockingTier = <R extends Pick<TierRow, 'features'>>(
  rows: readonly R[],
  grants: (features: TierFeatures) => boolean,
): R | undefined => rows.find((row) => grants(row.features));

/** What a time window is for: viewing (charts, reads), downloading, or the public API. */
export type DataPurpose = 'view' | 'download' | 'api';

/**
 * Whether a tier's features let a caller reach `days` back for a purpose (`permissioned`: staff, a relation or a
 * campaign, who get the permissioned download window; else the public one). With `unlockingTier`, the tier a 403
 * names and the one a locked control offers.
 */
export const grantsPurpose =
  (purpose: DataPurpose, permissioned: boolean, days: number) =>
  (f: TierFeatures): boolean => {
    if (purpose === 'download') {
      const offered = permissioned ? f.manualDataDownloadPermissionedAccessDays : f.manualDataDownloadPublicAccessDays;
      return offered !== null && offered >= days;
    }
    if (purpose === 'api') return f.apiAccess && f.historicalDataAccessDays >= days;
    return f.historicalDataAccessDays >= days;
  };

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How far a requested start may lie before a window's start and still count as inside it: a client computes
 * "now minus N days" a moment before the server checks it.
 */
export const WINDOW_SLACK_MS = 60_000;
