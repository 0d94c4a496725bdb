import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { putIf } from '../dynamodb';
import type { DeviceSubscriptionRecord } from './device-subscription-record';

/**
 * Every subscription that has covered a device, each as billing last read it (docs/billing.md, "A device with more
 * than one subscription"): the customer area writes it, the migrate area backfills it.
 */
export const createSubscriptionHistory = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  /** Records a subscription of a device as just read, unless a newer read of it is already there. */
  put: (record: DeviceSubscriptionRecord): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: record,
      ConditionExpression: 'attribute_not_exists(syncedAt) OR syncedAt <= :syncedAt',
      ExpressionAttributeValues: { ':syncedAt': record.syncedAt },
    }),

  /** Every subscription that has covered the device (a handful: one per purchase). */
  of: async (deviceId: string): Promise<DeviceSubscriptionRecord[]> => {
    const items: DeviceSubscriptionRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'deviceId = :deviceId',
          ExpressionAttributeValues: { ':deviceId': deviceId },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...((page.Items ?? []) as DeviceSubscriptionRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  },
});
