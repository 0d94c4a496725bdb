import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductLine } from '../../../shared/contracts/devices';
import { type TierId, type TierRow, tierRow } from '../../../shared/sensor-data/tiers';
import { type KeyRead, type ReadAhead, readKey } from '../read-ahead';

/** Spec §4 subscription statuses under which the paid tier applies; any other status means the base tier. */
export const TIER_GRANTING_STATUSES = ['active', 'trialing', 'past_due'] as const;

/** The per-device subscription record billing writes (spec §3 Subscription, keyed by device). */
export interface DeviceSubscription {
  deviceId: string;
  tier: TierId;
  status: string;
  updated: number;
  id?: string;
  customerId?: string;
  currentPeriodStart?: number;
  currentPeriodEnd?: number;
  productName?: string;
}

const subscriptionRead = (tableName: string, deviceId: string): KeyRead => ({
  table: tableName,
  key: { deviceId },
  consistent: true,
});

/**
 * The one function that says a device's tier now: from its subscription record (consistent read, so an
 * upgrade unlocks data on the very next request), the base tier of its line when there is none, when its
 * status grants nothing, or when its period has ended.
 */
export const createDeviceTiers = ({
  db,
  tableName,
  now = Date.now,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  now?: () => number;
}) => ({
  /** The subscription record's key, for a request that reads it ahead with others. */
  keyRead: (deviceId: string) => subscriptionRead(tableName, deviceId),
  /**
   * Reads the record, which needs only the device id, and answers the tier once the product line is known: so
   * callers can read it together with the device record rather than after it.
   */
  tierReader: async (deviceId: string, ahead?: ReadAhead): Promise<(productLine: ProductLine) => TierRow> => {
    const subscription = (await readKey(db, subscriptionRead(tableName, deviceId), ahead)) as
      | DeviceSubscription
      | undefined;
    const granting =
      subscription !== undefined &&
      (TIER_GRANTING_STATUSES as readonly string[]).includes(subscription.status) &&
      !(subscription.currentPeriodEnd !== undefined && subscription.currentPeriodEnd < now());
    return (productLine) => tierRow(productLine, granting ? subscription.tier : undefined);
  },
  /** Billing's write (roadmap 2); tests and the demo data set tiers through it too. */
  put: async (subscription: DeviceSubscription): Promise<void> => {
    await db.send(new PutCommand({ TableName: tableName, Item: subscription }));
  },
});

export type DeviceTiers = ReturnType<typeof createDeviceTiers>;
