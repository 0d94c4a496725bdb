import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Parameter } from '../../../shared/contracts/system';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';
import { isConditionFailure, putIf } from '../../_shared/dynamodb';
import { readFrom } from '../../_shared/paging';
import { type KeyRead, readKey } from '../../_shared/read-ahead';
import type { ParameterStore } from '../domain/ports';

// Consistent: a parameter changed is read changed on the very next request.
const keyRead = (tableName: string, id: string): KeyRead => ({ table: tableName, key: { id }, consistent: true });

export const createParameterStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): ParameterStore => ({
  keyRead: (id) => keyRead(tableName, id),

  get: async (id, ahead) => (await readKey(db, keyRead(tableName, id), ahead)) as Parameter | undefined,

  list: async ({ limit, cursor }: { limit: number; cursor?: string }) => {
    const result = await readFrom(
      (startKey, max) => db.send(new ScanCommand({ TableName: tableName, Limit: max, ExclusiveStartKey: startKey })),
      decodeCursor(cursor),
      limit,
    );
    return { items: (result.Items ?? []) as Parameter[], nextCursor: encodeCursor(result.LastEvaluatedKey) };
  },

  create: (parameter: Parameter): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: parameter, ConditionExpression: 'attribute_not_exists(id)' }),

  put: async (parameter: Parameter): Promise<Parameter | undefined> =>
    (await db.send(new PutCommand({ TableName: tableName, Item: parameter, ReturnValues: 'ALL_OLD' }))).Attributes as
      | Parameter
      | undefined,

  update: async (
    id: string,
    value: Parameter['value'],
    updated: number,
  ): Promise<{ before: Parameter; after: Parameter } | undefined> => {
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          UpdateExpression: 'SET #value = :value, updated = :updated',
          ConditionExpression: 'attribute_exists(id)',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':value': value, ':updated': updated },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const before = result.Attributes as Parameter;
      return { before, after: { ...before, value, updated } };
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  remove: async (id: string): Promise<Parameter | undefined> => {
    try {
      const result = await db.send(
        new DeleteCommand({
          TableName: tableName,
          Key: { id },
          ConditionExpression: 'attribute_exists(id)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      return result.Attributes as Parameter;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },
});
