import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';

/** One page of a table as stored, for a migration that walks it with a cursor. */
export const scanPage = async (
  db: DynamoDBDocumentClient,
  tableName: string,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ items: Record<string, unknown>[]; nextCursor?: string }> => {
  const result = await db.send(
    new ScanCommand({
      TableName: tableName,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor),
      ConsistentRead: true,
    }),
  );
  const nextCursor = encodeCursor(result.LastEvaluatedKey);
  return { items: result.Items ?? [], ...(nextCursor ? { nextCursor } : {}) };
};

/** A table's pages of `limit` rows, by cursor: what a migration step walks. */
export const createTablePages =
  ({ db, tableName, limit }: { db: DynamoDBDocumentClient; tableName: string; limit: number }) =>
  (cursor: string | undefined) =>
    scanPage(db, tableName, { limit, ...(cursor ? { cursor } : {}) });
