import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createItemLookup, SECRET_NAME } from '../system/domain/item-lookup';
import {
  LOOKUP_TABLES,
  lookupTableDefinitions,
  PUBLIC_DIGESTS,
  refusedLookupTables,
  TABLE_POLICIES,
} from './table-lookup';
import { TABLES, type TableKey } from './tables';

const root = fileURLToPath(new URL('../..', import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });

/**
 * The attributes the product stores a secret in: whatever it sets from a hash or from fresh random bytes, as a
 * property (`secretHash: hashSecret(…)`) or an update's value (`':token': randomBytes(…)`).
 */
const storedSecrets = () => {
  const found = new Map<string, string>();
  const pattern = /['"]?:?(\w+)['"]?\s*:\s*(?:hashSecret|hashClaimCode|createHash|randomBytes)\(/g;
  for (const file of sources(path.join(root, 'functions'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      found.set(match[1]!, path.relative(root, file));
    }
  }
  return found;
};

describe('which tables staff may look items up in, and what never leaves any of them', () => {
  it('has a policy for every table, and for no table that does not exist', () => {
    const tables = Object.keys(TABLES).sort();
    const unclassified = tables.filter((table) => !TABLE_POLICIES[table as TableKey]);
    expect(unclassified).toEqual([]);
    expect(Object.keys(TABLE_POLICIES).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("registers every secret the product stores, as a secret of some table's policy", () => {
    const registered = new Set(Object.values(TABLE_POLICIES).flatMap((policy) => policy!.secrets));
    const found = storedSecrets();
    // The scan must see the secrets we know of, or it is not looking where they are written.
    expect([...found.keys()].sort()).toEqual(expect.arrayContaining(['claimCodeHash', 'secretHash', 'token']));
    for (const [name, file] of [...found].filter(([name]) => !PUBLIC_DIGESTS[name])) {
      expect({ name, file, registered: registered.has(name) }).toEqual({ name, file, registered: true });
    }
    expect(TABLE_POLICIES.devices!.secrets).toContain('claimCodeHash');
    expect(TABLE_POLICIES.deviceCredentials!.secrets).toContain('secretHash');
    expect(TABLE_POLICIES.apiKeys!.secrets).toContain('secretHash');
    expect(TABLE_POLICIES.notificationPreferences!.secrets).toContain('token');
  });

  it('refuses every table whose items are little but secrets', () => {
    for (const table of ['deviceCredentials', 'apiKeys', 'notificationPreferences'] as const) {
      expect(TABLE_POLICIES[table]!.lookup.allowed).toBe(false);
      expect(LOOKUP_TABLES).not.toContain(table);
    }
  });

  it.each(lookupTableDefinitions().map((t) => [t.table, t] as const))(
    'answers an item of %s without its secrets or anything named like one',
    async (_name, table) => {
      const key = {
        [table.partitionKey.name]: table.partitionKey.type === 'S' ? 'k' : 1,
        ...(table.sortKey ? { [table.sortKey.name]: table.sortKey.type === 'S' ? 's' : 2 } : {}),
      };
      const leaks = Object.fromEntries(table.secrets.map((name) => [name, `leak-${name}`]));
      const item = {
        ...key,
        ...leaks,
        passwordHash: 'leak-password',
        nested: { refreshToken: 'leak-token', list: [{ apiSecret: 'leak-secret', kept: 1 }] },
        kept: true,
      };
      const lookup = createItemLookup({
        tables: lookupTableDefinitions(),
        refused: refusedLookupTables(),
        reader: { batchGet: async () => ({ found: new Map([[table.table, [item]]]), unprocessed: new Map() }) },
      });
      const result = await lookup.batchGet({ [table.table]: { Keys: [key] } });
      expect(JSON.stringify(result.Responses)).not.toContain('leak-');
      expect(result.Responses[table.table]).toEqual([{ ...key, nested: { list: [{ kept: 1 }] }, kept: true }]);
      for (const secret of table.secrets) expect(result.withheld[table.table]).toContain(secret);
    },
  );

  it('withholds names that end like a secret, and only those', () => {
    for (const name of ['claimCodeHash', 'secretHash', 'token', 'refreshTokens', 'clientSecret', 'password']) {
      expect(name).toMatch(SECRET_NAME);
    }
    for (const name of ['tokenUse', 'hashedAt', 'secretary', 'id', 'measurementNames', 'subscriptionId']) {
      expect(name).not.toMatch(SECRET_NAME);
    }
  });
});
