import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { closeServer, type Emulator, LOCAL_HOST } from './listen';

const require = createRequire(import.meta.url);
const sesServer = (
  require('aws-ses-v2-local') as { default: (config: { host: string; port: number }) => Promise<Server> }
).default;

/** aws-ses-v2-local: SES v2 API plus a web page listing every e-mail sent (the mail viewer). */
export const startSes = async ({ port }: { port: number }): Promise<Emulator> => {
  const server = await sesServer({ host: LOCAL_HOST, port });
  const address = server.address() as { port: number };
  const url = `http://localhost:${address.port}`;
  return {
    name: 'ses',
    url,
    healthy: async () => (await fetch(`${url}/health-check`)).ok,
    stop: () => closeServer(server),
  };
};
