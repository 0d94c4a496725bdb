import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Parameter } from '../../../shared/contracts/system';
import { isConditionFailure, putIf, removeIfExists, scanPage } from '../../_shared/dynamodb';
import { storableJson } from '../../_shared/json-attribute';
import { cursorPage } from '../../_shared/paging';
import { type KeyRead, readKey } from '../../_shared/read-ahead';
import type { ParameterStore } from '../domain/ports';

/** A parameter's value is any JSON a person wrote: stored as it is, keys named `constructor` included. */
const storedItem = (parameter: Parameter) => ({ ...parameter, value: storableJson(parameter.value) });

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

  list: (page: { limit: number; cursor?: string }) =>
    cursorPage((startKey, limit) => scanPage<Parameter>(db, { TableName: tableName }, { limit, startKey }), page),

  create: (parameter: Parameter): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: storedItem(parameter), ConditionExpression: 'attribute_not_exists(id)' }),

  put: async (parameter: Parameter): Promise<Parameter | undefined> =>
    (await db.send(new PutCommand({ TableName: tableName, Item: storedItem(parameter), ReturnValues: 'ALL_OLD' })))
      .Attributes as Parameter | undefined,

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
          ExpressionAttributeValues: { ':value': storableJson(value), ':updated': updated },
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

  remove: async (id: string): Promise<Parameter | undefined> =>
    (await removeIfExists(db, tableName, id)) as Parameter | undefined,
});
