import {
  type AttributeDefinition,
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ScanCommand,
  type WriteRequest,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import type { TableDefinition } from '../../functions/_shared/tables';

/** Where a table's items wait while it is made again with its indexes. */
export const rebuildName = (name: string) => `${name}--rebuild`;

const isNamed = (error: unknown, ...names: string[]) => error instanceof Error && names.includes(error.name);

/** The CreateTable input of a definition, under a name, with or without its indexes. */
export const createTableInput = (name: string, table: TableDefinition, { indexes = true } = {}) => {
  const withIndexes = indexes ? (table.indexes ?? []) : [];
  const keys = [table.partitionKey, table.sortKey, ...withIndexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  const attributes = new Map<string, AttributeDefinition>();
  for (const k of keys) if (k) attributes.set(k.name, { AttributeName: k.name, AttributeType: k.type });
  const schema = (pk: { name: string }, sk?: { name: string }) => [
    { AttributeName: pk.name, KeyType: 'HASH' as const },
    ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
  ];
  return new CreateTableCommand({
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()],
    KeySchema: schema(table.partitionKey, table.sortKey),
    GlobalSecondaryIndexes: withIndexes.length
      ? withIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: schema(index.partitionKey, index.sortKey),
          Projection: { ProjectionType: 'ALL' },
        }))
      : undefined,
  });
};

/** Every item of one table into another, as they are (raw attribute values), 25 a write, leftovers retried. */
const copyItems = async (dynamo: DynamoDBClient, from: string, to: string): Promise<number> => {
  let copied = 0;
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: from, ExclusiveStartKey: startKey }));
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += 25) {
      let requests: WriteRequest[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      for (let round = 0; requests.length > 0; round += 1) {
        if (round > 10) throw new Error(`Copying ${from} into ${to} left items unwritten`);
        const result = await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [to]: requests } }));
        requests = result.UnprocessedItems?.[to] ?? [];
      }
    }
    copied += items.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return copied;
};

// dynalite finishes a delete or create after answering it: a create under the same name, or a write, waits for it.
const WAIT = { minDelay: 1, maxDelay: 1, maxWaitTime: 60 };
const drop = async (dynamo: DynamoDBClient, name: string) => {
  await dynamo.send(new DeleteTableCommand({ TableName: name }));
  await waitUntilTableNotExists({ client: dynamo, ...WAIT }, { TableName: name });
};
/** Resolves once dynalite has made a table it answered created active (a write before then is ResourceNotFound). */
export const untilActive = async (dynamo: DynamoDBClient, name: string) => {
  await waitUntilTableExists({ client: dynamo, ...WAIT }, { TableName: name });
};

/** Creates a table and resolves once it is active. */
export const createTable = async (dynamo: DynamoDBClient, input: CreateTableCommand, name: string) => {
  await dynamo.send(input);
  await untilActive(dynamo, name);
};

const exists = async (dynamo: DynamoDBClient, name: string): Promise<string[] | undefined> => {
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: name }));
    return (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName ?? '');
  } catch (error) {
    if (isNamed(error, 'ResourceNotFoundException')) return undefined;
    throw error;
  }
};

/**
 * A table on this machine whose definition gained an index since its data directory was made: dynalite cannot add a
 * global secondary index to a table (UpdateTable's index creation is not implemented), as DynamoDB does online. So
 * the table is made again: its items are copied aside, the table is deleted and created with every index of its
 * definition, and the items are copied back. A start that stopped half-way finds the copy and finishes from it (the
 * copy is deleted last), so no item is lost. Local only; in the cloud the CDK adds the index (one per deploy).
 *
 * @returns the indexes added, or an empty list when the table had them all
 */
export const addMissingIndexes = async (
  dynamo: DynamoDBClient,
  name: string,
  table: TableDefinition,
  log: (line: string) => void = () => undefined,
): Promise<string[]> => {
  const aside = rebuildName(name);
  const wanted = (table.indexes ?? []).map((index) => index.name);
  const current = await exists(dynamo, name);
  const missing = current ? wanted.filter((index) => !current.includes(index)) : wanted;
  if ((await exists(dynamo, aside)) !== undefined) {
    if (current !== undefined && missing.length > 0) {
      // Stopped while copying aside: the table is whole, the copy may not be. Start again.
      await drop(dynamo, aside);
    } else {
      // Stopped after the table was deleted: the copy is whole. Finish from it.
      if (current === undefined) await createTable(dynamo, createTableInput(name, table), name);
      const restored = await copyItems(dynamo, aside, name);
      await drop(dynamo, aside);
      log(`${name}: ${restored} items back, with its indexes, from the copy a stopped start left`);
      return missing;
    }
  }
  if (current === undefined || missing.length === 0) return [];
  await createTable(dynamo, createTableInput(aside, table, { indexes: false }), aside);
  const copied = await copyItems(dynamo, name, aside);
  await drop(dynamo, name);
  await createTable(dynamo, createTableInput(name, table), name);
  const restored = await copyItems(dynamo, aside, name);
  await drop(dynamo, aside);
  log(`${name}: added ${missing.join(', ')} (${copied} items copied aside, ${restored} back)`);
  return missing;
};
