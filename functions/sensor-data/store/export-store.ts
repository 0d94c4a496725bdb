import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { putIf, queryPage } from '../../_shared/dynamodb';
import { createHourlyCounter } from '../../_shared/hourly-counter';
import { createExportRecords } from '../../_shared/sensor-data/export-records';
import type { ExportRecord, ExportStore } from '../domain/ports';

type Key = Record<string, unknown>;

/** The exports table: the API creates records, the worker moves them along queued → running → done | failed. */
export const createExportStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): ExportStore => ({
  create: (record: ExportRecord): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: record, ConditionExpression: 'attribute_not_exists(id)' }),

  get: createExportRecords({ db, tableName }).get,

  start: async (id: string, now: number): Promise<ExportRecord | undefined> => {
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          UpdateExpression: 'SET #status = :running, updated = :now ADD attempts :one',
          ConditionExpression: 'attribute_exists(id) AND #status IN (:queued, :running)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': now, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes as ExportRecord;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
  },

  progress: async (id: string, progress: number, rows: number, now: number): Promise<void> => {
    await db
      .send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          UpdateExpression: 'SET progress = :progress, #rows = :rows, updated = :now',
          ConditionExpression: '#status = :running',
          ExpressionAttributeNames: { '#status': 'status', '#rows': 'rows' },
          ExpressionAttributeValues: { ':progress': progress, ':rows': rows, ':now': now, ':running': 'running' },
        }),
      )
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
      });
  },

  finish: async (
    id: string,
    outcome: { status: 'done'; rows: number; bytes: number } | { status: 'failed' | 'queued'; error: string },
    now: number,
  ): Promise<void> => {
    const values: Record<string, unknown> =
      outcome.status === 'done'
        ? { ':status': 'done', ':progress': 100, ':rows': outcome.rows, ':bytes': outcome.bytes }
        : { ':status': outcome.status, ':error': outcome.error };
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { id },
        UpdateExpression:
          outcome.status === 'done'
            ? 'SET #status = :status, progress = :progress, #rows = :rows, bytes = :bytes, updated = :now REMOVE #error'
            : 'SET #status = :status, #error = :error, updated = :now',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#error': 'error',
          ...(outcome.status === 'done' ? { '#rows': 'rows' } : {}),
        },
        ExpressionAttributeValues: { ...values, ':now': now },
      }),
    );
  },

  countStart: createHourlyCounter({ db, tableName, kind: 'starts' }),

  listByOwner: (ownerId: string, since: number, startKey: Key | undefined, limit: number) =>
    queryPage<ExportRecord>(
      db,
      {
        TableName: tableName,
        IndexName: 'byOwner',
        KeyConditionExpression: 'ownerId = :owner AND created >= :since',
        ExpressionAttributeValues: { ':owner': ownerId, ':since': since },
        ScanIndexForward: false,
      },
      { limit, startKey },
    ),
});
