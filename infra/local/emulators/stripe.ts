import { createServer } from 'node:http';
import { closeServer, type Emulator, listen } from './listen';

/**
 * The local Stripe-compatible server. Billing is a later issue (ROADMAP.md §2); until then it answers
 * its health check and refuses API calls plainly, so nothing mistakes it for working billing.
 */
export const startStripe = async ({ port }: { port: number }): Promise<Emulator> => {
  const server = createServer((request, response) => {
    if (request.url === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
      return;
    }
    response
      .writeHead(501, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ error: { type: 'api_error', message: 'The local Stripe server has no billing API yet.' } }),
      );
  });
  const actual = await listen(server, port);
  const url = `http://localhost:${actual}`;
  return {
    name: 'stripe',
    url,
    healthy: async () => (await fetch(`${url}/health`)).ok,
    stop: () => closeServer(server),
  };
};
