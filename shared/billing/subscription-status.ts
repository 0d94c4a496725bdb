import { ownValue } from '../objects/own-value';

/** Spec §4: the statuses a subscription may have (Stripe's). */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'past_due',
  'incomplete',
  'incomplete_expired',
  'trialing',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A status colour (the `--status-{colour}` tokens of frontend/src/app/tokens.css, one hue each, readable in both
 * themes) and a glyph that says the same without colour. Grey is kept for a status this code does not know.
 */
export interface StatusLook {
  label: string;
  colour: 'green' | 'teal' | 'blue' | 'amber' | 'orange' | 'red' | 'magenta' | 'purple' | 'grey';
  icon: 'check' | 'hourglass' | 'clock' | 'alert' | 'minus' | 'cross' | 'ban' | 'pause' | 'question';
}

/** Spec §4: each status its own colour and icon, none of them the unknown status's grey or question mark. */
const LOOKS: Record<SubscriptionStatus, Omit<StatusLook, 'label'>> = {
  active: { colour: 'green', icon: 'check' },
  trialing: { colour: 'teal', icon: 'hourglass' },
  incomplete: { colour: 'blue', icon: 'clock' },
  past_due: { colour: 'amber', icon: 'alert' },
  unpaid: { colour: 'orange', icon: 'minus' },
  incomplete_expired: { colour: 'red', icon: 'cross' },
  canceled: { colour: 'magenta', icon: 'ban' },
  paused: { colour: 'purple', icon: 'pause' },
};

/** "past_due" → "Past due": the capitalised status, words apart (spec §4). */
export const statusLabel = (status: string): string => {
  const words = status.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown';
};

/** Spec §4: each status its own colour and icon; an unknown status is grey with a question mark. */
export const statusLook = (status: string): StatusLook => ({
  label: statusLabel(status),
  ...(ownValue<Omit<StatusLook, 'label'>>(LOOKS, status) ?? { colour: 'grey', icon: 'question' }),
});

/** Spec §4 statuses under which a subscription's tier applies; any other status means the line's base tier. */
export const TIER_GRANTING_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** Whether a subscription gives its tier at `now`: a granting status and a period that has not ended. */
export const grantsTier = (subscription: { status: string; currentPeriodEnd?: number }, now: number): boolean =>
  (TIER_GRANTING_STATUSES as readonly string[]).includes(subscription.status) &&
  (subscription.currentPeriodEnd === undefined || subscription.currentPeriodEnd > now);
