import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { closeServer, type Emulator, LOCAL_CREDENTIALS, listen } from './listen';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;

/** dynalite with its LevelDB files under the data directory, so a restart keeps every item. */
export const startDynamoDb = async ({ dataDir, port }: { dataDir: string; port: number }): Promise<Emulator> => {
  await mkdir(dataDir, { recursive: true });
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
