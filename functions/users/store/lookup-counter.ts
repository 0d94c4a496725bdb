import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../_shared/dynamodb';

/**
 * The picker's per-person look-up counters (table peopleLookups): one item per person and window, counted with an
 * atomic conditional ADD, so concurrent look-ups can never pass the limit together.
 */
export const createLookupCounter = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  /**
   * Counts one look-up of `userId` in the window starting at `windowStart` (ms), unless it already holds `limit`.
   * @returns false when the window is full (nothing counted)
   */
  count: async (userId: string, windowStart: number, windowMs: number, limit: number): Promise<boolean> => {
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id: `lookups#${userId}#${windowStart}` },
          UpdateExpression: 'ADD #count :one SET expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          // TTL is housekeeping only: the key names the window, so an old item never counts again.
          ExpressionAttributeValues: {
            ':one': 1,
            ':limit': limit,
            ':exp': Math.ceil((windowStart + 2 * windowMs) / 1000),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
});

export type LookupCounter = ReturnType<typeof createLookupCounter>;
