import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type BatchGetTable, batchGetKeys } from './dynamodb';

type Item = Record<string, unknown>;

/** One item a request will read by its key. */
export interface KeyRead {
  table: string;
  key: Record<string, string | number>;
  /** A strongly consistent read: what decides access must see the last write. */
  consistent: boolean;
  /** Only these attributes (the key's are always read). @default every attribute */
  attributes?: readonly string[];
}

/** Items read before they were needed: whoever needs one asks here first, and reads it itself if it is not here. */
export interface ReadAhead {
  /** Whether this read was done ahead, at least as consistent and with at least its attributes. */
  has(read: KeyRead): boolean;
  /** The item read ahead for this read; undefined when it does not exist (or was not read ahead). */
  item(read: KeyRead): Item | undefined;
}

export const NOTHING_AHEAD: ReadAhead = { has: () => false, item: () => undefined };

const keyNames = (read: KeyRead) => Object.keys(read.key).sort();

const idOf = (table: string, key: Record<string, unknown>, names: readonly string[]) =>
  `${table}\u0000${JSON.stringify(names.map((name) => key[name]))}`;

/** Placeholders for every name: attribute names such as `name` and `state` are reserved words. */
const projectionOf = (attributes: readonly string[]) => ({
  ProjectionExpression: attributes.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#p${i}`, name])),
});

interface TableReads {
  names: string[];
  keys: Map<string, KeyRead['key']>;
  consistent: boolean;
  /** Undefined: every attribute. */
  attributes?: Set<string>;
}

/** The reads of each table merged: one key once, consistent if any read is, projected only if every read is. */
const byTable = (reads: readonly KeyRead[]): Map<string, TableReads> => {
  type Merging = TableReads & { all: KeyRead[] };
  const tables = new Map<string, Merging>();
  for (const read of reads) {
    const names = keyNames(read);
    const table: Merging = tables.get(read.table) ?? { names, keys: new Map(), consistent: false, all: [] };
    table.keys.set(idOf(read.table, read.key, names), read.key);
    table.consistent ||= read.consistent;
    table.all.push(read);
    tables.set(read.table, table);
  }
  for (const table of tables.values()) {
    if (table.all.every((read) => read.attributes)) {
      table.attributes = new Set([...table.names, ...table.all.flatMap((read) => read.attributes ?? [])]);
    }
  }
  return tables;
};

const requestOf = (table: TableReads): BatchGetTable => ({
  Keys: [...table.keys.values()],
  ConsistentRead: table.consistent,
  ...(table.attributes ? projectionOf([...table.attributes]) : {}),
});

/**
 * Reads items of any tables by key in one round trip, so a request's independent reads cost one: a BatchGetItem
 * (left-over keys retried), or a GetItem when there is one key.
 */
export const readTogether = async (db: DynamoDBDocumentClient, reads: readonly KeyRead[]): Promise<ReadAhead> => {
  const tables = byTable(reads);
  const found = new Map<string, Item>();
  const keep = (name: string, items: readonly Item[]) => {
    for (const item of items) found.set(idOf(name, item, tables.get(name)!.names), item);
  };
  const [first] = tables;
  if (tables.size === 1 && first![1].keys.size === 1) {
    const [name, table] = first!;
    const { Keys, ...how } = requestOf(table);
    const { Item } = await db.send(new GetCommand({ TableName: name, Key: Keys[0]!, ...how }));
    keep(name, Item ? [Item] : []);
  } else if (tables.size > 0) {
    const requestItems = Object.fromEntries([...tables].map(([name, table]) => [name, requestOf(table)]));
    for (const [name, items] of await batchGetKeys(db, requestItems)) keep(name, items);
  }

  const has = (read: KeyRead) => {
    const table = tables.get(read.table);
    if (!table?.keys.has(idOf(read.table, read.key, table.names))) return false;
    if (read.consistent && !table.consistent) return false;
    const projected = table.attributes;
    return !projected || (read.attributes?.every((name) => projected.has(name)) ?? false);
  };
  return {
    has,
    item: (read) => (has(read) ? found.get(idOf(read.table, read.key, keyNames(read))) : undefined),
  };
};

/** One item by key: from what was read ahead when it is there, else a GetItem of its own. */
export const readKey = async (
  db: DynamoDBDocumentClient,
  read: KeyRead,
  ahead: ReadAhead = NOTHING_AHEAD,
): Promise<Item | undefined> => {
  if (ahead.has(read)) return ahead.item(read);
  return (await readTogether(db, [read])).item(read);
};
