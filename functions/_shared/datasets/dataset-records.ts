import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DatasetRecord } from './dataset-access';

/**
 * A dataset's record by id: the datasets area's store reads it so, and the api area, which reads the table only to
 * check who may fetch a dataset's file (functions/api/domain/signed-urls.ts).
 */
export const createDatasetRecords = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  get: async (id: string): Promise<DatasetRecord | undefined> => {
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
    // Counter items share the table; only a record with a concept is a dataset.
    return item && typeof item.conceptId === 'string' ? (item as DatasetRecord) : undefined;
  },
});
