import {
  BatchGetCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  type PutCommandInput,
} from '@aws-sdk/lib-dynamodb';

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** A Put guarded by its condition. @returns false when the condition did not hold (nothing was written) */
export const putIf = async (db: DynamoDBDocumentClient, input: PutCommandInput): Promise<boolean> => {
  try {
    await db.send(new PutCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** Deletes the item with this `id` if there is one. @returns false when there was nothing to delete */
export const deleteIfExists = async (db: DynamoDBDocumentClient, tableName: string, id: string): Promise<boolean> => {
  try {
    await db.send(
      new DeleteCommand({ TableName: tableName, Key: { id }, ConditionExpression: 'attribute_exists(id)' }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

const BATCH_GET_LIMIT = 100;
const MAX_ROUNDS = 8;

/**
 * BatchGetItem of the items keyed `id` by any number of ids (each read once), retrying what DynamoDB leaves
 * unprocessed (with a short back-off). Missing ids are left out; the order is DynamoDB's.
 */
export const batchGetAll = async <T = Record<string, unknown>>(
  db: DynamoDBDocumentClient,
  tableName: string,
  ids: readonly string[],
  consistentRead = true,
): Promise<T[]> => {
  const keys = [...new Set(ids)].map((id) => ({ id }));
  const items: T[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
    let pending: Record<string, unknown>[] = keys.slice(start, start + BATCH_GET_LIMIT);
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_ROUNDS) throw new Error(`BatchGetItem on ${tableName} left keys unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const result = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistentRead } } }),
      );
      items.push(...((result.Responses?.[tableName] ?? []) as T[]));
      pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return items;
};
