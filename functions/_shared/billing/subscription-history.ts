import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { putIf, queryPage } from '../dynamodb';
import { readAll } from '../paging';
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
  of: (deviceId: string): Promise<DeviceSubscriptionRecord[]> =>
    readAll((startKey) =>
      queryPage<DeviceSubscriptionRecord>(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'deviceId = :deviceId',
          ExpressionAttributeValues: { ':deviceId': deviceId },
          ConsistentRead: true,
        },
        { startKey },
      ),
    ),
});
