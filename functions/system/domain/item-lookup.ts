import { type BatchGetResult, type ItemKey, LOOKUP_MAX_KEYS, type LookupTable } from '../../../shared/contracts/system';
import { BadRequest, Forbidden } from '../../_shared/errors';
import { SYSTEM_MESSAGES } from './system-messages';

/**
 * The second guard on what a look-up answers: an attribute named like a secret is withheld at any depth, whatever its
 * table's policy lists (functions/_shared/table-lookup.ts), so a secret added later under an honest name stays out.
 */
export const SECRET_NAME = /(hash|secret|token|password)s?$/i;

type KeyType = 'S' | 'N';

/** A table staff may look items up in: its key and the attributes its policy withholds. */
export interface LookupTableDefinition {
  /** The platform's key of the table (TABLES), never its deployed name. */
  table: string;
  description: string;
  partitionKey: { name: string; type: KeyType };
  sortKey?: { name: string; type: KeyType };
  secrets: readonly string[];
}

export type Item = Record<string, unknown>;

/** The store port: items by key, retried, with what DynamoDB still left unread. */
export interface ItemReader {
  batchGet(keys: ReadonlyMap<string, readonly ItemKey[]>): Promise<{
    found: Map<string, Item[]>;
    unprocessed: Map<string, ItemKey[]>;
  }>;
}

export interface ItemLookupDeps {
  tables: readonly LookupTableDefinition[];
  /** Tables that exist but may not be looked up, with the reason a refusal gives. */
  refused: ReadonlyMap<string, string>;
  reader: ItemReader;
}

const keyNames = (table: LookupTableDefinition) => [
  table.partitionKey.name,
  ...(table.sortKey ? [table.sortKey.name] : []),
];

const identity = (table: LookupTableDefinition, key: Record<string, unknown>) =>
  JSON.stringify(keyNames(table).map((name) => key[name]));

const keyIssue = (table: LookupTableDefinition, key: ItemKey): string | undefined => {
  const names = keyNames(table);
  const given = Object.keys(key);
  if (given.length !== names.length || !names.every((name) => Object.hasOwn(key, name))) {
    return SYSTEM_MESSAGES.lookupKeyShape(names);
  }
  for (const attribute of [table.partitionKey, ...(table.sortKey ? [table.sortKey] : [])]) {
    const value = key[attribute.name];
    if (attribute.type === 'S' ? typeof value !== 'string' : typeof value !== 'number') {
      return SYSTEM_MESSAGES.lookupKeyType(attribute.name, attribute.type);
    }
  }
  return undefined;
};

const base64 = (bytes: Uint8Array): string => {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
};

/**
 * An item as JSON with its secrets removed: the table's listed secrets at the top level, and anything named like one
 * at any depth (each removal recorded by its path). DynamoDB's sets become sorted lists and binary values base64.
 */
const cleaned = (value: unknown, path: string, secrets: ReadonlySet<string>, removed: Set<string>): unknown => {
  if (value instanceof Set) {
    return [...value]
      .map((v) => cleaned(v, path, secrets, removed))
      .sort((a, b) => String(a).localeCompare(String(b), 'en', { numeric: true }));
  }
  if (value instanceof Uint8Array) return base64(value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map((v, i) => cleaned(v, `${path}${i}.`, secrets, removed));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) {
      const at = `${path}${name}`;
      if ((path === '' && secrets.has(name)) || SECRET_NAME.test(name)) {
        removed.add(at);
        continue;
      }
      if (inner !== undefined) out[name] = cleaned(inner, `${at}.`, secrets, removed);
    }
    return out;
  }
  return value;
};

/** Staff look items up by key in the allowed tables (docs/system.md, "Item look-up"); secrets are never answered. */
export const createItemLookup = ({ tables, refused, reader }: ItemLookupDeps) => {
  const byName = new Map(tables.map((table) => [table.table, table]));

  const checked = (requestItems: Record<string, { Keys: ItemKey[] }>) => {
    const asked = Object.values(requestItems).reduce((sum, { Keys }) => sum + Keys.length, 0);
    if (asked > LOOKUP_MAX_KEYS) throw new BadRequest(SYSTEM_MESSAGES.lookupTooManyKeys(LOOKUP_MAX_KEYS, asked));
    const issues: { path: string; message: string }[] = [];
    const keys = new Map<string, ItemKey[]>();
    for (const [name, { Keys }] of Object.entries(requestItems)) {
      const reason = refused.get(name);
      if (reason !== undefined) throw new Forbidden(SYSTEM_MESSAGES.lookupTableRefused(name, reason));
      const table = byName.get(name);
      if (!table) throw new BadRequest(SYSTEM_MESSAGES.lookupUnknownTable(name, [...byName.keys()]));
      const unique = new Map<string, ItemKey>();
      Keys.forEach((key, index) => {
        const issue = keyIssue(table, key);
        if (issue) issues.push({ path: `body.params.RequestItems.${name}.Keys.${index}`, message: issue });
        else unique.set(identity(table, key), key);
      });
      keys.set(name, [...unique.values()]);
    }
    if (issues.length > 0) {
      throw new BadRequest(`Invalid keys: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
    }
    return keys;
  };

  return {
    tables: (): LookupTable[] => tables.map(({ secrets, ...table }) => ({ ...table, withheld: [...secrets] })),

    batchGet: async (requestItems: Record<string, { Keys: ItemKey[] }>): Promise<BatchGetResult> => {
      const keys = checked(requestItems);
      const { found, unprocessed } = await reader.batchGet(keys);
      const result: BatchGetResult = { Responses: {}, UnprocessedKeys: {}, missing: {}, withheld: {} };
      for (const [name, asked] of keys) {
        const table = byName.get(name)!;
        const removed = new Set<string>(table.secrets);
        const items = new Map((found.get(name) ?? []).map((item) => [identity(table, item), item]));
        const left = new Set((unprocessed.get(name) ?? []).map((key) => identity(table, key)));
        const secrets = new Set(table.secrets);
        // In the order asked, which DynamoDB's answer does not keep.
        result.Responses[name] = asked
          .map((key) => items.get(identity(table, key)))
          .filter((item): item is Item => item !== undefined)
          .map((item) => cleaned(item, '', secrets, removed) as BatchGetResult['Responses'][string][number]);
        result.missing[name] = asked.filter((key) => {
          const id = identity(table, key);
          return !items.has(id) && !left.has(id);
        });
        if (left.size > 0) result.UnprocessedKeys[name] = { Keys: unprocessed.get(name)! };
        result.withheld[name] = [...removed].sort();
      }
      return result;
    },
  };
};

export type ItemLookup = ReturnType<typeof createItemLookup>;
