import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ReleaseVerdict } from '../../../shared/contracts/code-releases';
import { deleteIfExists, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import type { ReleaseStore } from '../domain/ports';
import type { StoredRelease } from '../domain/records';

type Key = Record<string, unknown>;

/** The releases table (docs/code-releases.md): every change is a conditional write on `updated`. */
export const createReleaseStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): ReleaseStore => ({
  create: (release: StoredRelease): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: release, ConditionExpression: 'attribute_not_exists(id)' }),

  get: async (id: string): Promise<StoredRelease | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item as
      | StoredRelease
      | undefined,

  save: (release: StoredRelease, readUpdated: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: release,
      ConditionExpression: '#updated = :read',
      ExpressionAttributeNames: { '#updated': 'updated' },
      ExpressionAttributeValues: { ':read': readUpdated },
    }),

  remove: (id: string): Promise<boolean> => deleteIfExists(db, tableName, id),

  page: (productLine: string, limit: number, startKey?: Key) =>
    queryPage<StoredRelease>(
      db,
      {
        TableName: tableName,
        IndexName: 'byProductLine',
        KeyConditionExpression: 'productLine = :line',
        ExpressionAttributeValues: { ':line': productLine },
        ScanIndexForward: false,
      },
      { limit, startKey },
    ),

  setVerdict: async (id: string, verdict: ReleaseVerdict): Promise<void> => {
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET verdict = :verdict',
      ConditionExpression: 'attribute_exists(id) AND (attribute_not_exists(verdict) OR verdict.#at <= :at)',
      ExpressionAttributeNames: { '#at': 'at' },
      ExpressionAttributeValues: { ':verdict': verdict, ':at': verdict.at },
    });
  },
});
