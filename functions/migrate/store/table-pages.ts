import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanPage as scanTable } from '../../_shared/dynamodb';
import { cursorPage } from '../../_shared/paging';

/** One page of a table as stored, for a migration that walks it with a cursor. */
export const scanPage = (
  db: DynamoDBDocumentClient,
  tableName: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: Record<string, unknown>[]; nextCursor?: string }> =>
  cursorPage(
    (startKey, limit) => scanTable(db, { TableName: tableName, ConsistentRead: true }, { limit, startKey }),
    page,
  );

/** A table's pages of `limit` rows, by cursor: what a migration step walks. */
export const createTablePages =
  ({ db, tableName, limit }: { db: DynamoDBDocumentClient; tableName: string; limit: number }) =>
  (cursor: string | undefined) =>
    scanPage(db, tableName, { limit, ...(cursor ? { cursor } : {}) });
