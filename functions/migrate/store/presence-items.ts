import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, queryPage } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';

/**
 * The sort keys' prefix of the retired webhook presence job's items (`p#{deviceId}`, one per device a presence webhook
 * watched, under the webhook's id in the deliveries table; decision 105 retired them).
 */
const PRESENCE_PREFIX = 'p#';

/** Deletes one webhook's presence items (its partition's `p#` keys only, read as keys); answers how many there were. */
export const createPresenceItemsRemoval =
  ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) =>
  async (webhookId: string): Promise<number> => {
    const keys = await readAll((startKey) =>
      queryPage(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'webhookId = :id AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':id': webhookId, ':prefix': PRESENCE_PREFIX },
          ProjectionExpression: 'webhookId, sk',
          ConsistentRead: true,
        },
        { startKey },
      ),
    );
    await batchWriteAll(
      db,
      tableName,
      keys.map((key) => ({ DeleteRequest: { Key: { webhookId: key.webhookId, sk: key.sk } } })),
    );
    return keys.length;
  };
