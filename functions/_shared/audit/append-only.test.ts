import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The audit log is append-only in the code too (docs/decisions/020-audit-log.md): only its writer and the system
 * area's search are told the table's name, the writer only puts and the search only queries. The grants hold the same
 * in the cloud (test/infra/audit.test.ts); this keeps a module from even trying.
 */
const root = path.resolve(import.meta.dirname, '../../..');

const sources = (dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative] : [];
  });

const WRITER = 'functions/_shared/audit/audit-log-store.ts';
const SEARCH = 'functions/system/store/audit-search-store.ts';

describe('the audit log in the code', () => {
  const files = sources('functions').map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

  it('is reached only through its writer and the search', () => {
    const naming = files.filter(({ text }) => /AUDIT_LOG_TABLE|auditLogTable/.test(text)).map(({ file }) => file);
    // The table's definition and the store name the variable; the chain wires the writer from it, the system area's
    // deps the search.
    expect(naming.sort()).toEqual([
      WRITER,
      'functions/_shared/http/http-area.ts',
      'functions/_shared/tables.ts',
      'functions/system/deps.ts',
    ]);
    const stores = files
      .filter(({ text }) => /createAuditLogStore|createAuditSearchStore/.test(text))
      .map((f) => f.file);
    expect(stores.sort()).toEqual([WRITER, 'functions/_shared/http/http-area.ts', 'functions/system/deps.ts', SEARCH]);
  });

  it('is only put to by the writer and only queried by the search', () => {
    /** The SDK commands a file names, and what it takes from the shared DynamoDB helpers (each sends one kind). */
    const calls = (file: string) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      const helpers = /import \{([^}]*)\} from '[^']*\/dynamodb';/.exec(text)?.[1]?.split(',') ?? [];
      const commands = [...text.matchAll(/\b(\w+Command)\b/g)].map((m) => m[1]!);
      return [...new Set([...commands, ...helpers.map((name) => name.replace(/^\s*type\s+/, '').trim())])]
        .filter(Boolean)
        .sort();
    };
    expect(calls(WRITER)).toEqual(['PutCommand']);
    expect(calls(SEARCH)).toEqual(['queryPage']);
    expect(readFileSync(path.join(root, WRITER), 'utf8')).toContain(
      "ConditionExpression: 'attribute_not_exists(#month)'",
    );
  });
});
