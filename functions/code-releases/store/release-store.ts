import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ReleaseVerdict } from '../../../shared/contracts/code-releases';
import { isConditionFailure, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { eachPage } from '../../_shared/paging';
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

  // A rolled-out release never changes, whatever a use case asks (docs/code-releases.md, "Releases").
  save: (release: StoredRelease, readUpdated: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: release,
      ConditionExpression: '#updated = :read AND attribute_not_exists(rolledOut)',
      ExpressionAttributeNames: { '#updated': 'updated' },
      ExpressionAttributeValues: { ':read': readUpdated },
    }),

  remove: async (id: string): Promise<boolean> => {
    try {
      await db.send(
        new DeleteCommand({
          TableName: tableName,
          Key: { id },
          ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(rolledOut)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  markRolledOut: async (id: string, at: number): Promise<void> => {
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET rolledOut = :at',
      ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(rolledOut) AND #status = :published',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':at': at, ':published': 'published' },
    });
  },

  previousPublished: async (productLine: string, versionKey: string): Promise<StoredRelease | undefined> => {
    for await (const items of eachPage((startKey) =>
      queryPage<StoredRelease>(
        db,
        {
          TableName: tableName,
          IndexName: 'byProductLine',
          KeyConditionExpression: 'productLine = :line AND versionKey < :key',
          FilterExpression: '#status = :published',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':line': productLine, ':key': versionKey, ':published': 'published' },
          ScanIndexForward: false,
        },
        { limit: 25, startKey },
      ),
    )) {
      if (items[0]) return items[0];
    }
    return undefined;
  },

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
