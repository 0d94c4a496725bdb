import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductLine } from '../../../shared/contracts/devices';
import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';
import { createSubscriptionHistory } from '../../_shared/billing/subscription-history';
import { putIf } from '../../_shared/dynamodb';
import type { BillingStore } from '../domain/ports';

/** How long a worked event id is remembered: Stripe retries a delivery for up to 3 days. */
const EVENT_MEMORY_SECONDS = 30 * 24 * 3600;

/**
 * Billing's tables: each device's subscription record (read by every tier check, functions/_shared/sensor-data/
 * device-tier.ts), the ids of the Stripe events already worked, and the devices' product lines.
 */
export const createBillingStore = ({
  db,
  subscriptionsTable,
  historyTable,
  eventsTable,
  devicesTable,
}: {
  db: DynamoDBDocumentClient;
  subscriptionsTable: string;
  historyTable: string;
  eventsTable: string;
  devicesTable: string;
}): BillingStore => {
  const history = createSubscriptionHistory({ db, tableName: historyTable });
  return {
    putSubscription: (record: DeviceSubscriptionRecord): Promise<boolean> =>
      putIf(db, {
        TableName: subscriptionsTable,
        Item: record,
        ConditionExpression: 'attribute_not_exists(syncedAt) OR syncedAt <= :syncedAt',
        ExpressionAttributeValues: { ':syncedAt': record.syncedAt },
      }),

    putHistory: history.put,
    historyOf: history.of,

    getSubscription: async (deviceId: string): Promise<DeviceSubscriptionRecord | undefined> =>
      (await db.send(new GetCommand({ TableName: subscriptionsTable, Key: { deviceId }, ConsistentRead: true })))
        .Item as DeviceSubscriptionRecord | undefined,

    productLineOf: async (deviceId: string): Promise<ProductLine | undefined> =>
      (
        await db.send(
          new GetCommand({ TableName: devicesTable, Key: { id: deviceId }, ProjectionExpression: 'productLine' }),
        )
      ).Item?.productLine as ProductLine | undefined,

    wasWorked: async (eventId: string): Promise<boolean> =>
      Boolean((await db.send(new GetCommand({ TableName: eventsTable, Key: { eventId }, ConsistentRead: true }))).Item),

    markWorked: async (eventId: string, type: string, now: number): Promise<void> => {
      await putIf(db, {
        TableName: eventsTable,
        Item: { eventId, type, workedAt: now, expiresAt: Math.floor(now / 1000) + EVENT_MEMORY_SECONDS },
        ConditionExpression: 'attribute_not_exists(eventId)',
      });
    },
  };
};
