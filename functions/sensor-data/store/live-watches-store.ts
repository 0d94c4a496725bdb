import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, putIf } from '../../_shared/dynamodb';
import type { LiveWatchesStore, StoredLiveWatch } from '../domain/ports';

/** The liveWatches table (pk deviceId, sk watcher = identity id; `expiresAt` in s is its TTL attribute). */
export const createLiveWatchesStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): LiveWatchesStore => ({
  put: (watch: StoredLiveWatch): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: watch,
      ConditionExpression: 'attribute_not_exists(watcher) OR #sub = :sub',
      ExpressionAttributeNames: { '#sub': 'sub' },
      ExpressionAttributeValues: { ':sub': watch.sub },
    }),
  remove: async (deviceId: string, watcher: string, sub: string): Promise<'removed' | 'absent' | 'another'> => {
    try {
      await db.send(
        new DeleteCommand({
          TableName: tableName,
          Key: { deviceId, watcher },
          ConditionExpression: '#sub = :sub',
          ExpressionAttributeNames: { '#sub': 'sub' },
          ExpressionAttributeValues: { ':sub': sub },
        }),
      );
      return 'removed';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The condition also fails when there is no watch: only a read tells the two apart.
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { deviceId, watcher } }));
      return Item ? 'another' : 'absent';
    }
  },
});
