import type { ProductLine } from '../../../shared/contracts/devices';
import type { SubscriptionData } from '../../../shared/contracts/webhook-events';
import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';

export interface BillingStore {
  /**
   * Writes a device's record unless a newer read of Stripe is already recorded (two deliveries worked side by side
   * each read the subscription; the later read wins whatever order they finish in). @returns false when skipped
   */
  putSubscription: (record: DeviceSubscriptionRecord) => Promise<boolean>;
  putHistory: (record: DeviceSubscriptionRecord) => Promise<boolean>;
  historyOf: (deviceId: string) => Promise<DeviceSubscriptionRecord[]>;
  getSubscription: (deviceId: string) => Promise<DeviceSubscriptionRecord | undefined>;
  productLineOf: (deviceId: string) => Promise<ProductLine | undefined>;
  wasWorked: (eventId: string) => Promise<boolean>;
  /** Remembers a worked event (after its work, so a failure leaves it for Stripe's retry). */
  markWorked: (eventId: string, type: string, now: number) => Promise<void>;
}

/** Tells a device's webhooks that its subscription changed (subscription.changed, docs/integrations.md). */
export interface SubscriptionWebhooks {
  subscriptionChanged: (data: SubscriptionData, sourceEventId: string, at: number) => Promise<unknown>;
}
