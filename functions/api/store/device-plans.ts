import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

/** How many of a device's past subscriptions its page lists. */
export const PLAN_HISTORY_LIMIT = 20;

/**
 * What billing reads of a device, from tables other areas own: the subscriptions it has had, as the customer area's
 * webhook recorded them, and its product line (the devices area's record).
 */
export const createDevicePlans = ({
  db,
  subscriptionsTable,
  historyTable,
  devicesTable,
}: {
  db: DynamoDBDocumentClient;
  subscriptionsTable: string;
  historyTable: string;
  devicesTable: string;
}) => ({
  /** The one its subscription record holds (the tier it has now) first, then the others, the last read first. */
  subscriptionIdsOf: async (deviceId: string): Promise<string[]> => {
    const [current, history] = await Promise.all([
      db.send(
        new GetCommand({
          TableName: subscriptionsTable,
          Key: { deviceId },
          ConsistentRead: true,
          ProjectionExpression: 'id',
        }),
      ),
      db.send(
        new QueryCommand({
          TableName: historyTable,
          KeyConditionExpression: 'deviceId = :deviceId',
          ExpressionAttributeValues: { ':deviceId': deviceId },
          ProjectionExpression: 'id, syncedAt',
          ConsistentRead: true,
        }),
      ),
    ]);
    const past = ((history.Items ?? []) as { id: string; syncedAt: number }[])
      .sort((a, b) => b.syncedAt - a.syncedAt)
      .map((item) => item.id);
    const currentId = current.Item?.id as string | undefined;
    return [...new Set([...(currentId ? [currentId] : []), ...past])].slice(0, PLAN_HISTORY_LIMIT);
  },

  /** The device's product line, when it exists. */
  productLineOf: async (deviceId: string): Promise<string | undefined> => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: devicesTable,
        Key: { id: deviceId },
        ProjectionExpression: 'productLine',
        ConsistentRead: true,
      }),
    );
    return typeof Item?.productLine === 'string' ? Item.productLine : undefined;
  },
});
