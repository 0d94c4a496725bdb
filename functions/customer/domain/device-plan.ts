import { grantsTier } from '../../../shared/billing/subscription-status';
import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';

/** Tier ids from least to most: the AL lines start at `free`, SD1 at `tier0`. */
const TIER_ORDER = ['tier0', 'free', 'tier1', 'tier2', 'tier3'];

const rankOf = (record: DeviceSubscriptionRecord) => TIER_ORDER.indexOf(record.tier);

/**
 * Which of the subscriptions that have covered a device its record holds (the one every tier check reads): a
 * subscription that grants a tier now, the highest tier first and then the latest period; when none grants, the
 * last one billing read, so the device page shows how its plan ended. A person who bought a second plan for a
 * device and then cancels the first keeps the second.
 */
export const currentPlan = (
  records: readonly DeviceSubscriptionRecord[],
  now: number,
): DeviceSubscriptionRecord | undefined => {
  const granting = records.filter((record) => grantsTier(record, now));
  if (granting.length > 0) {
    return [...granting].sort(
      (a, b) => rankOf(b) - rankOf(a) || (b.currentPeriodStart ?? 0) - (a.currentPeriodStart ?? 0),
    )[0];
  }
  return [...records].sort((a, b) => b.syncedAt - a.syncedAt)[0];
};
