import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceRecords } from '../domain/cache-files';

/** Whether a device is registered: one key read of the devices table, its id only. */
export const createDeviceRecords = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DeviceRecords => ({
  exists: async (deviceId) => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: { id: deviceId },
        ProjectionExpression: '#id',
        ExpressionAttributeNames: { '#id': 'id' },
        ConsistentRead: true,
      }),
    );
    return Item !== undefined;
  },
});
