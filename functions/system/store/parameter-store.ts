import { type DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Parameter } from '../../../shared/contracts/system';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';
import { deleteIfExists, isConditionFailure, putIf } from '../../_shared/dynamodb';
import { readFrom } from '../../_shared/paging';

export const createParameterStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  get: async (id: string): Promise<Parameter | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item as
      | Parameter
      | undefined,

  /** Admin tooling only: a paged Scan is acceptable for a table of a few hundred settings. */
  list: async ({ limit, cursor }: { limit: number; cursor?: string }) => {
    const result = await readFrom(
      (startKey, max) => db.send(new ScanCommand({ TableName: tableName, Limit: max, ExclusiveStartKey: startKey })),
      decodeCursor(cursor),
      limit,
    );
    return { items: (result.Items ?? []) as Parameter[], nextCursor: encodeCursor(result.LastEvaluatedKey) };
  },

  /** @returns false when the id already exists */
  create: (parameter: Parameter): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: parameter, ConditionExpression: 'attribute_not_exists(id)' }),

  /** Creates or replaces: for a parameter whose absence means its default (the tier table). */
  put: async (parameter: Parameter): Promise<void> => {
    await db.send(new PutCommand({ TableName: tableName, Item: parameter }));
  },

  /** @returns undefined when the id does not exist */
  update: async (id: string, value: Parameter['value'], updated: number): Promise<Parameter | undefined> => {
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          UpdateExpression: 'SET #value = :value, updated = :updated',
          ConditionExpression: 'attribute_exists(id)',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':value': value, ':updated': updated },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes as Parameter;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  /** @returns false when the id does not exist */
  remove: (id: string): Promise<boolean> => deleteIfExists(db, tableName, id),
});

export type ParameterStore = ReturnType<typeof createParameterStore>;
