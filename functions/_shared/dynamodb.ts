import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { inLanes } from './in-lanes';
import { readAll, type StoredPage } from './paging';

type Key = Record<string, unknown>;
type Item = Record<string, unknown>;

/** Where a page starts (the key the last one stopped at) and how many items DynamoDB may read for it. */
export interface PageStart {
  /** Items read, counted before any FilterExpression; without it a page ends at DynamoDB's 1 MB. */
  limit?: number;
  startKey?: Key;
}

const bounded = ({ limit, startKey }: PageStart) => ({
  ...(limit === undefined ? {} : { Limit: limit }),
  ...(startKey ? { ExclusiveStartKey: startKey } : {}),
});

const asIs = <T>(item: Item) => item as T;

const pageOf = <T>(
  { Items, LastEvaluatedKey }: { Items?: Item[]; LastEvaluatedKey?: Key },
  toItem: (item: Item) => T,
): StoredPage<T> => ({ items: (Items ?? []).map(toItem), lastKey: LastEvaluatedKey });

/**
 * One page of a Query: at most `limit` items read from `startKey` on, and the key the next page starts from
 * (undefined: no more). `toItem` turns each stored item into the store's own shape. The one place a Query
 * continues from a key: an API list wraps it in a cursor (paging.ts), a job reads every page (`readAll`).
 */
export const queryPage = async <T = Item>(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  page: PageStart = {},
  toItem: (item: Item) => T = asIs,
): Promise<StoredPage<T>> => pageOf(await db.send(new QueryCommand({ ...input, ...bounded(page) })), toItem);

/** One page of a Scan, as `queryPage` reads a Query: for admin tooling and migrations only (a Scan reads it all). */
export const scanPage = async <T = Item>(
  db: DynamoDBDocumentClient,
  input: Omit<ScanCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  page: PageStart = {},
  toItem: (item: Item) => T = asIs,
): Promise<StoredPage<T>> => pageOf(await db.send(new ScanCommand({ ...input, ...bounded(page) })), toItem);

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

/**
 * An Update guarded by its condition. @returns the attributes the update asked back (an empty object when it asked
 * for none), or undefined when the condition did not hold (nothing was written)
 */
export const updateIf = async (
  db: DynamoDBDocumentClient,
  input: UpdateCommandInput,
): Promise<Record<string, unknown> | undefined> => {
  try {
    return (await db.send(new UpdateCommand(input))).Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
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

/** Deletes the item with this `id` if there is one. @returns what it held, or undefined when there was nothing */
export const removeIfExists = async (
  db: DynamoDBDocumentClient,
  tableName: string,
  id: string,
): Promise<Record<string, unknown> | undefined> => {
  try {
    const result = await db.send(
      new DeleteCommand({
        TableName: tableName,
        Key: { id },
        ConditionExpression: 'attribute_exists(id)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    return result.Attributes;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

const BATCH_GET_LIMIT = 100;
const MAX_ROUNDS = 8;

/** What BatchGetItem asks of one table: its keys and how to read them. */
export interface BatchGetTable {
  Keys: Key[];
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/**
 * BatchGetItem of keys of any tables (at most 100 keys a request, the requests side by side, so any number of keys
 * costs one round trip), retrying what DynamoDB leaves unprocessed (with a short back-off) for up to `rounds` rounds.
 * Answers each table's items found (in DynamoDB's order) and the keys still unprocessed after the last round.
 */
export const batchGetWithLeftovers = async (
  db: DynamoDBDocumentClient,
  requestItems: Record<string, BatchGetTable>,
  { rounds = MAX_ROUNDS }: { rounds?: number } = {},
): Promise<{ found: Map<string, Record<string, unknown>[]>; unprocessed: Map<string, Key[]> }> => {
  const found = new Map<string, Record<string, unknown>[]>(Object.keys(requestItems).map((table) => [table, []]));
  const unprocessed = new Map<string, Key[]>();
  const all = Object.entries(requestItems).flatMap(([table, { Keys }]) => Keys.map((key) => [table, key] as const));
  const readChunk = async (chunk: typeof all) => {
    let pending: Record<string, BatchGetTable> = {};
    for (const [table, key] of chunk) {
      pending[table] ??= { ...requestItems[table]!, Keys: [] };
      pending[table].Keys.push(key);
    }
    for (let round = 0; Object.keys(pending).length > 0 && round < rounds; round += 1) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const result = await db.send(new BatchGetCommand({ RequestItems: pending }));
      for (const [table, items] of Object.entries(result.Responses ?? {})) found.get(table)?.push(...items);
      // Each table's own read settings again, whatever the answer carries besides the keys.
      pending = Object.fromEntries(
        Object.entries(result.UnprocessedKeys ?? {})
          .filter(([, left]) => (left.Keys ?? []).length > 0)
          .map(([table, left]) => [table, { ...requestItems[table]!, Keys: left.Keys as Key[] }]),
      );
    }
    for (const [table, { Keys }] of Object.entries(pending))
      unprocessed.set(table, [...(unprocessed.get(table) ?? []), ...Keys]);
  };
  const chunks: (typeof all)[] = [];
  for (let start = 0; start < all.length; start += BATCH_GET_LIMIT)
    chunks.push(all.slice(start, start + BATCH_GET_LIMIT));
  await Promise.all(chunks.map(readChunk));
  return { found, unprocessed };
};

/**
 * BatchGetItem of keys of any tables (at most 100 keys a request, side by side), retrying what DynamoDB leaves
 * unprocessed (with a short back-off). Answers each table's items found; the order is DynamoDB's. Throws when keys
 * stay unprocessed.
 */
export const batchGetKeys = async (
  db: DynamoDBDocumentClient,
  requestItems: Record<string, BatchGetTable>,
): Promise<Map<string, Record<string, unknown>[]>> => {
  const { found, unprocessed } = await batchGetWithLeftovers(db, requestItems);
  if (unprocessed.size > 0) {
    throw new Error(`BatchGetItem on ${[...unprocessed.keys()].join(', ')} left keys unprocessed`);
  }
  return found;
};

/**
 * BatchGetItem of the items keyed `id` by any number of ids (each read once), retrying what DynamoDB leaves
 * unprocessed. Missing ids are left out; the order is DynamoDB's.
 */
export const batchGetAll = async <T = Record<string, unknown>>(
  db: DynamoDBDocumentClient,
  tableName: string,
  ids: readonly string[],
  consistentRead = true,
): Promise<T[]> => {
  const keys = [...new Set(ids)].map((id) => ({ id }));
  if (keys.length === 0) return [];
  const found = await batchGetKeys(db, { [tableName]: { Keys: keys, ConsistentRead: consistentRead } });
  return (found.get(tableName) ?? []) as T[];
};

const BATCH_WRITE_LIMIT = 25;

type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

/**
 * BatchWriteItem of any number of puts and deletes, 25 per call with up to `concurrency` calls in flight,
 * retrying what DynamoDB leaves unprocessed with backoff. Throws when items stay unprocessed, so a caller never
 * reports as written what was not.
 */
export const batchWriteAll = async (
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly WriteRequest[],
  { concurrency = 4 }: { concurrency?: number } = {},
): Promise<void> => {
  const chunks: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += BATCH_WRITE_LIMIT) {
    chunks.push(requests.slice(start, start + BATCH_WRITE_LIMIT));
  }
  const writeChunk = async (chunk: WriteRequest[]) => {
    let pending = chunk;
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_ROUNDS) throw new Error(`BatchWriteItem on ${tableName} left items unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (result.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    }
  };
  await inLanes(chunks, concurrency, writeChunk);
};

/**
 * Deletes the items of one partition (`partition`: its key's name and value) whose sort key (`sortKey`, its name)
 * starts with `prefix`, or all of them without one: their keys read (strongly consistent, keys only), then deleted by
 * batches. Answers how many there were.
 */
export const deletePartition = async (
  db: DynamoDBDocumentClient,
  {
    tableName,
    partition: [partitionName, partitionValue],
    sortKey,
    prefix,
  }: { tableName: string; partition: readonly [string, string]; sortKey: string; prefix?: string },
): Promise<number> => {
  const keys = await readAll((startKey) =>
    queryPage(
      db,
      {
        TableName: tableName,
        KeyConditionExpression: `#pk = :pk${prefix === undefined ? '' : ' AND begins_with(#sk, :prefix)'}`,
        ExpressionAttributeNames: { '#pk': partitionName, '#sk': sortKey },
        ExpressionAttributeValues: { ':pk': partitionValue, ...(prefix === undefined ? {} : { ':prefix': prefix }) },
        ProjectionExpression: '#pk, #sk',
        ConsistentRead: true,
      },
      { startKey },
    ),
  );
  await batchWriteAll(
    db,
    tableName,
    keys.map((key) => ({ DeleteRequest: { Key: { [partitionName]: key[partitionName], [sortKey]: key[sortKey] } } })),
  );
  return keys.length;
};
