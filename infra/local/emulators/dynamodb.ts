import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { closeServer, type Emulator, LOCAL_CREDENTIALS, listen } from './listen';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;

interface LevelIteratorClass {
  prototype: { close: () => Promise<void>; return?: () => Promise<void> };
}

/** abstract-level as dynalite's LevelDB binding (classic-level) loads it: the copy whose iterators dynalite gets. */
export const levelIterators = (() => {
  const fromClassicLevel = createRequire(createRequire(require.resolve('dynalite')).resolve('classic-level'));
  return fromClassicLevel('abstract-level') as Record<
    'AbstractIterator' | 'AbstractKeyIterator' | 'AbstractValueIterator',
    LevelIteratorClass
  >;
})();

/**
 * dynalite 4.0.0 reads LevelDB through streams over abstract-level iterators and, when a stream ends or a Query or
 * Scan stops early, closes the iterator through `iterator.return()` if there is one. abstract-level 3's iterators
 * have `close()` and no `return()`, so every Query and Scan left its iterator open, each holding its cached items
 * on the heap and a LevelDB snapshot (memtables and files kept alive) outside it: the local stack's memory grew
 * with every read (issue 19, docs/performance.md). This gives the iterators the `return()` dynalite looks for.
 */
const closeIteratorsOnReturn = () => {
  for (const iterator of Object.values(levelIterators)) {
    if (Object.hasOwn(iterator.prototype, 'return')) continue;
    Object.defineProperty(iterator.prototype, 'return', {
      configurable: true,
      writable: true,
      value(this: { close: () => Promise<void> }) {
        return this.close();
      },
    });
  }
};

/** dynalite with its LevelDB files under the data directory, so a restart keeps every item. */
export const startDynamoDb = async ({ dataDir, port }: { dataDir: string; port: number }): Promise<Emulator> => {
  await mkdir(dataDir, { recursive: true });
  closeIteratorsOnReturn();
  const server = dynalite({ path: dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const actual = await listen(server, port);
  const url = `http://localhost:${actual}`;
  const client = new DynamoDBClient({
    region: 'us-west-2',
    endpoint: url,
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    name: 'dynamodb',
    url,
    healthy: async () => {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return true;
    },
    stop: () => closeServer(server),
  };
};
