import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { grantsTier } from '../../../shared/billing/subscription-status';
import type { ProductLine } from '../../../shared/contracts/devices';
import { MESSAGES } from '../../../shared/messages';
import { readTierTable, TIER_FEATURES_PARAMETER } from '../../../shared/sensor-data/tier-features';
import { type TierId, type TierRow, type TierTable, tierRow } from '../../../shared/sensor-data/tiers';
import { log } from '../logger';
import { type KeyRead, NOTHING_AHEAD, type ReadAhead, readTogether } from '../read-ahead';

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

/** A device's tier and every tier of its line (what would unlock more), from the table in force. */
export interface DeviceTier {
  tier: TierRow;
  /** The line's rows, lowest first. */
  line: readonly TierRow[];
}

/**
 * The one function that says a device's tier now: from its subscription record (consistent read, so an
 * upgrade unlocks data on the very next request), the base tier of its line when there is none, when its
 * status grants nothing, or when its period has ended. What a tier gives comes from the `tier-features` system
 * parameter (consistent too: an administrator's change applies on the next read), or the seed while it is absent.
 */
export const createDeviceTiers = ({
  db,
  tableName,
  parametersTable,
  now = Date.now,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  /** The system area's parameters table, read only for the `tier-features` parameter. */
  parametersTable: string;
  now?: () => number;
}) => {
  const tableRead: KeyRead = { table: parametersTable, key: { id: TIER_FEATURES_PARAMETER }, consistent: true };
  return {
    /** The keys the tier reads (subscription record, tier table), for a request that reads them ahead with others. */
    keyReads: (deviceId: string): KeyRead[] => [subscriptionRead(tableName, deviceId), tableRead],
    /**
     * Reads the record, which needs only the device id, and the table in one round trip (none when read ahead),
     * and answers the tier once the product line is known: so callers can read it together with the device
     * record rather than after it.
     */
    tierReader: async (
      deviceId: string,
      ahead: ReadAhead = NOTHING_AHEAD,
    ): Promise<(productLine: ProductLine) => DeviceTier> => {
      const reads = [subscriptionRead(tableName, deviceId), tableRead];
      const missing = reads.filter((read) => !ahead.has(read));
      const fetched = missing.length ? await readTogether(db, missing) : NOTHING_AHEAD;
      const itemOf = (read: KeyRead) => (ahead.has(read) ? ahead.item(read) : fetched.item(read));
      const subscription = itemOf(reads[0]!) as DeviceSubscription | undefined;
      const { table, problem } = readTierTable(itemOf(tableRead)?.value);
      if (problem) log('error', MESSAGES.tierFeaturesStoredInvalid, { problem });
      const granting = subscription !== undefined && grantsTier(subscription, now());
      return (productLine) => {
        const line = table[productLine];
        return { tier: tierRow(line, granting ? subscription.tier : undefined), line };
      };
    },
    /** The whole table in force (the `tier-features` parameter, else the seed): the pricing displays' read. */
    table: async (): Promise<TierTable> => {
      const { table, problem } = readTierTable((await readTogether(db, [tableRead])).item(tableRead)?.value);
      if (problem) log('error', MESSAGES.tierFeaturesStoredInvalid, { problem });
      return table;
    },
    /** Writes a device's subscription record as it is (billing writes it through the customer area's own store). */
    put: async (subscription: DeviceSubscription): Promise<void> => {
      await db.send(new PutCommand({ TableName: tableName, Item: subscription }));
    },
  };
};

export type DeviceTiers = ReturnType<typeof createDeviceTiers>;
