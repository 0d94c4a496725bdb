import type { Product } from '../../../../shared/contracts/api-subscriptions';
import type { DataSummary } from '../../../../shared/contracts/sensor-data-readings';
import { DAY_MS, type TierRow, unlockingTier, WINDOW_SLACK_MS } from '../../../../shared/sensor-data/tiers';
import { type ChartRange, viewableRange } from './range-rules';

/**
 * The locked-history band (docs/frontend-registry.md, "Billing"): the part of a chart's range before the tier's view
 * window, drawn shaded on every chart of the panel and labelled with the tier that unlocks it.
 */
export interface LockBand {
  /** The range's start and the window's start: the shaded part. */
  from: number;
  to: number;
  /** "Tier 2 unlocks 365 days", or that no tier of the line reaches back that far. */
  label: string;
  /** The lowest tier whose window covers the whole range; undefined when none does. */
  unlocks?: Pick<TierRow, 'tier' | 'name'>;
}

/**
 * Where the band lies for a range, or undefined when the range lies inside the view window (a minute of slack, as
 * the API allows), wholly before it (nothing is charted; the API's 403 says why) or the tier has no charts.
 * The tiers are the device line's as the summary gives them (administrators change what each unlocks).
 */
export const lockBand = (
  summary: Pick<DataSummary, 'windows' | 'tiers'>,
  range: ChartRange,
  now: number,
): LockBand | undefined => {
  const days = summary.windows.view.days;
  if (days === null) return undefined;
  const shown = viewableRange(summary, range, now);
  if (shown.from <= range.from) return undefined;
  // The range was computed a moment ago: "30 days" needs a 30-day tier, not a 31-day one.
  const needed = Math.ceil((now - range.from - WINDOW_SLACK_MS) / DAY_MS);
  const unlock = unlockingTier(summary.tiers, (features) => features.historicalDataAccessDays >= needed);
  return unlock
    ? {
        from: range.from,
        to: shown.from,
        label: `${unlock.name} unlocks ${unlock.features.historicalDataAccessDays} days`,
        unlocks: { tier: unlock.tier, name: unlock.name },
      }
    : { from: range.from, to: shown.from, label: 'No tier of this product line reaches that far back' };
};

/** The product on sale that sells a tier of a line (the catalogue's metadata), if any. */
export const productOfTier = (
  products: readonly Product[],
  productLine: string,
  tier: string | undefined,
): Product | undefined =>
  tier === undefined
    ? undefined
    : products.find((product) => product.active && product.productLine === productLine && product.tier === tier);
