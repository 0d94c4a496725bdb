import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TestRun } from '../../../shared/contracts/code-releases';
import { putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import type { TestRunStore } from '../domain/ports';

type Key = Record<string, unknown>;

/** A release's test runs: key (releaseId, id); ids start with the start time, so the Query runs newest first. */
export const createTestRunStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): TestRunStore => ({
  create: (run: TestRun): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: run, ConditionExpression: 'attribute_not_exists(id)' }),

  get: async (releaseId: string, id: string): Promise<TestRun | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { releaseId, id }, ConsistentRead: true }))).Item as
      | TestRun
      | undefined,

  conclude: async (
    releaseId: string,
    id: string,
    result: { status: 'Pass' | 'Fail'; finished: number; concludedBy: string; log?: string },
  ): Promise<TestRun | undefined> => {
    const sets = ['#status = :status', 'finished = :finished', 'concludedBy = :by'];
    const values: Record<string, unknown> = {
      ':status': result.status,
      ':finished': result.finished,
      ':by': result.concludedBy,
      ':running': 'InProgress',
    };
    if (result.log !== undefined) {
      sets.push('#log = :log');
      values[':log'] = result.log;
    }
    return (await updateIf(db, {
      TableName: tableName,
      Key: { releaseId, id },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(id) AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status', ...(result.log !== undefined ? { '#log': 'log' } : {}) },
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    })) as TestRun | undefined;
  },

  page: (releaseId: string, limit: number, startKey?: Key) =>
    queryPage<TestRun>(
      db,
      {
        TableName: tableName,
        KeyConditionExpression: 'releaseId = :release',
        ExpressionAttributeValues: { ':release': releaseId },
        ScanIndexForward: false,
      },
      { limit, startKey },
    ),

  results: (releaseId: string): Promise<Pick<TestRun, 'id' | 'status' | 'finished'>[]> =>
    readAll((startKey) =>
      queryPage<Pick<TestRun, 'id' | 'status' | 'finished'>>(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'releaseId = :release',
          ProjectionExpression: 'id, #status, finished',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':release': releaseId },
          ConsistentRead: true,
        },
        { startKey },
      ),
    ),
});
