import type { Product, Subscription } from '../../../../shared/contracts/api-subscriptions';
import type { ProductLine } from '../../../../shared/contracts/devices';
import { AL_TIERS, SD1_TIERS } from '../../../../shared/sensor-data/tiers';

/**
 * What the device page says about a plan's next step, and the changes it offers, without React
 * (docs/billing.md, "Changing a plan"): the words a person reads are decided here and unit-tested.
 */

/** Tier ids from least to most (the AL lines start at `free`, SD1 at `tier0`). */
const TIER_ORDER = ['tier0', 'free', 'tier1', 'tier2', 'tier3'];

const BASE: Record<ProductLine, string> = { sd1: 'tier0', al30: 'free', al60: 'free', al80: 'free' };

/** "12 Dec 2026": day, short month, year, in the reader's time zone unless one is given. */
export const formatDay = (ms: number, timeZone?: string): string =>
  new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone });

/** A tier id as people read it: "Tier 2"; the AL lines' base tier is "the free tier". */
export const tierLabel = (tier: string | undefined): string => {
  if (tier === 'free') return 'the free tier';
  return [...SD1_TIERS, ...AL_TIERS].find((row) => row.tier === tier)?.name ?? 'another tier';
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The statuses under which a subscription runs (and may be changed). */
const RUNNING = new Set(['active', 'trialing', 'past_due']);

export const isRunning = (subscription: Pick<Subscription, 'status'>) => RUNNING.has(subscription.status);

/**
 * What happens when, in plain words: "Renews on 12 Dec 2026", "Tier 3 until 12 Dec 2026, then Tier 2",
 * "Ends on 12 Dec 2026, then Tier 0". Undefined for a subscription that no longer runs or has no period.
 */
export const whatHappens = (
  subscription: Pick<
    Subscription,
    'status' | 'tier' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'scheduledTier' | 'scheduledAt'
  >,
  productLine: ProductLine,
  day: (ms: number) => string = formatDay,
): string | undefined => {
  const end = subscription.currentPeriodEnd;
  if (!isRunning(subscription) || end === undefined) return undefined;
  if (subscription.cancelAtPeriodEnd) return `Ends on ${day(end)}, then ${tierLabel(BASE[productLine])}`;
  if (subscription.scheduledTier) {
    return `${capitalised(tierLabel(subscription.tier))} until ${day(subscription.scheduledAt ?? end)}, then ${tierLabel(subscription.scheduledTier)}`;
  }
  return `Renews on ${day(end)}`;
};

export type PlanChoice =
  | { kind: 'upgrade'; product: Product; label: string; note: string }
  | { kind: 'downgrade'; product: Product; label: string }
  | { kind: 'cancel'; label: string }
  | { kind: 'keep'; label: string };

const rank = (tier: string | undefined) => TIER_ORDER.indexOf(tier ?? '');

/**
 * The choices without an upgrade to a tier the page already shows: after an upgrade the device's record (which the
 * panel's tier also reads) can land before the subscription is read again, and "Tier 2" must not sit beside
 * "Upgrade to Tier 2".
 */
export const withoutShownUpgrades = (choices: readonly PlanChoice[], shownTier: string | undefined): PlanChoice[] =>
  choices.filter((choice) => choice.kind !== 'upgrade' || rank(choice.product.tier) > rank(shownTier));

/**
 * The changes a running subscription offers, in the order the page shows them: an upgrade to each higher tier of
 * the line (charged now, prorated), a switch to each lower one from the period's end (not the one already
 * scheduled), cancelling at period end, and keeping the plan when something is pending.
 */
export const planChoices = (
  subscription: Pick<
    Subscription,
    'status' | 'tier' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'scheduledTier' | 'scheduledAt'
  >,
  products: readonly Product[],
  productLine: ProductLine,
  day: (ms: number) => string = formatDay,
): PlanChoice[] => {
  if (!isRunning(subscription)) return [];
  const current = rank(subscription.tier);
  const tiers = products
    .filter((p) => p.active && p.productLine === productLine && rank(p.tier) > rank(BASE[productLine]))
    .sort((a, b) => rank(a.tier) - rank(b.tier));
  const end = subscription.currentPeriodEnd;
  const choices: PlanChoice[] = [];
  for (const product of [...tiers].reverse()) {
    if (rank(product.tier) > current) {
      choices.push({
        kind: 'upgrade',
        product,
        label: `Upgrade to ${tierLabel(product.tier)}`,
        note: 'Applies now: the prorated difference for the rest of this period is charged at once.',
      });
    }
  }
  for (const product of [...tiers].reverse()) {
    if (rank(product.tier) < current && product.tier !== subscription.scheduledTier && end !== undefined) {
      choices.push({ kind: 'downgrade', product, label: `Switch to ${tierLabel(product.tier)} from ${day(end)}` });
    }
  }
  if (!subscription.cancelAtPeriodEnd) choices.push({ kind: 'cancel', label: 'Cancel at period end' });
  if (subscription.cancelAtPeriodEnd || subscription.scheduledTier) {
    choices.push({ kind: 'keep', label: `Keep ${tierLabel(subscription.tier)}` });
  }
  return choices;
};
