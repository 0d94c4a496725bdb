import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

/** How many of a device's past subscriptions its page lists. */
export const PLAN_HISTORY_LIMIT = 20;

/**
 * The subscriptions a device has had, as the customer area's webhook recorded them: the one its record holds (the
 * tier it has now) first, then the others, the last read first.
 */
export const createDevicePlans = ({
  db,
  subscriptionsTable,
  historyTable,
}: {
  db: DynamoDBDocumentClient;
  subscriptionsTable: string;
  historyTable: string;
}) => ({
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
});
