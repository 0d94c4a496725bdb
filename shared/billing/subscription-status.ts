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

/** A design-token colour (frontend/src/app/tokens.css) and a glyph that says the same without colour. */
export interface StatusLook {
  label: string;
  colour: 'success' | 'info' | 'warning' | 'danger' | 'muted';
  icon: 'check' | 'clock' | 'alert' | 'cross' | 'pause' | 'hourglass' | 'question';
}

const LOOKS: Record<SubscriptionStatus, Omit<StatusLook, 'label'>> = {
  active: { colour: 'success', icon: 'check' },
  trialing: { colour: 'info', icon: 'hourglass' },
  past_due: { colour: 'warning', icon: 'alert' },
  incomplete: { colour: 'warning', icon: 'clock' },
  unpaid: { colour: 'danger', icon: 'alert' },
  incomplete_expired: { colour: 'danger', icon: 'cross' },
  canceled: { colour: 'muted', icon: 'cross' },
  paused: { colour: 'muted', icon: 'pause' },
};

/** "past_due" → "Past due": the capitalised status, words apart (spec §4). */
export const statusLabel = (status: string): string => {
  const words = status.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown';
};

/** Spec §4: each status its own colour and icon; an unknown status is grey with a question mark. */
export const statusLook = (status: string): StatusLook => ({
  label: statusLabel(status),
  ...(ownValue<Omit<StatusLook, 'label'>>(LOOKS, status) ?? { colour: 'muted', icon: 'question' }),
});

/** Spec §4 statuses under which a subscription's tier applies; any other status means the line's base tier. */
export const TIER_GRANTING_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** Whether a subscription gives its tier at `now`: a granting status and a period that has not ended. */
export const grantsTier = (subscription: { status: string; currentPeriodEnd?: number }, now: number): boolean =>
  (TIER_GRANTING_STATUSES as readonly string[]).includes(subscription.status) &&
  (subscription.currentPeriodEnd === undefined || subscription.currentPeriodEnd > now);
