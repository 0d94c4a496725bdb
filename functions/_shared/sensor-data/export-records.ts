import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportRecord } from './export-access';

/**
 * An export's record by id: the sensor-data area's store reads it so, and the api area, which reads the table only to
 * check who may fetch an export's file (functions/api/domain/signed-urls.ts).
 */
export const createExportRecords = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  get: async (id: string): Promise<ExportRecord | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item as
      | ExportRecord
      | undefined,
});
