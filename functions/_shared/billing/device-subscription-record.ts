import type { TierId } from '../../../shared/sensor-data/tiers';

/**
 * Spec §3 Subscription, bound to one device: what billing records for the tier of each device it covers. The customer
 * area writes it (functions/customer/domain/subscription-record.ts `recordsOf`), the migrate area backfills its history.
 */
export interface DeviceSubscriptionRecord {
  deviceId: string;
  id: string;
  status: string;
  customerId: string;
  tier: TierId;
  productId: string;
  productName: string;
  /** The price's id (Stripe's former "plan"). */
  planId: string;
  /** Per period, in the currency's smallest unit, for this device's item. */
  amount: number;
  interval?: string;
  intervalCount?: number;
  /** All times in milliseconds (spec §9: Stripe's seconds converted). */
  currentPeriodStart?: number;
  currentPeriodEnd?: number;
  trialStart?: number;
  trialEnd?: number;
  cancelAtPeriodEnd: boolean;
  /**
   * A change the subscription's schedule makes at its next phase (a downgrade at period end): the tier and product
   * the device moves to, and when (ms). Absent when nothing is scheduled.
   */
  scheduledTier?: TierId;
  scheduledProductId?: string;
  scheduledProductName?: string;
  scheduledAt?: number;
  invoiceUrl?: string;
  invoiceNumber?: string;
  /** When billing last read the subscription from Stripe: an older read never overwrites a newer one. */
  syncedAt: number;
  updated: number;
}
