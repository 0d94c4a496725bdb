import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, putIf, scanPage } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import { LeaseLost, type MigrationRecord, type MigrationStore } from '../domain/runner';

/** The migrations table: one item per migration that has ever run (a few dozen over the product's life). */
export const createMigrationStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): MigrationStore => ({
  all: () =>
    readAll((startKey) => scanPage<MigrationRecord>(db, { TableName: tableName, ConsistentRead: true }, { startKey })),

  claim: async (id, by, now, leaseUntil) => {
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          UpdateExpression:
            'SET #status = :running, runBy = :by, startedAt = :now, leaseUntil = :lease, counts = if_not_exists(counts, :zero) REMOVE #error, finishedAt',
          ConditionExpression:
            'attribute_not_exists(id) OR #status = :failed OR (#status = :running AND leaseUntil <= :now)',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: {
            ':running': 'running',
            ':failed': 'failed',
            ':by': by,
            ':now': now,
            ':lease': leaseUntil,
            ':zero': { scanned: 0, updated: 0, skipped: 0 },
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes as MigrationRecord;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  progress: async (record) => {
    // Only the runner that claimed it (same runner, same start) may write: a runner whose lease ran out stops.
    const written = await putIf(db, {
      TableName: tableName,
      Item: record,
      ConditionExpression: 'runBy = :by AND startedAt = :startedAt',
      ExpressionAttributeValues: { ':by': record.runBy, ':startedAt': record.startedAt },
    });
    if (!written) throw new LeaseLost(record.id);
  },
});
