import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LANE_SK } from '../../functions/_shared/integrations/webhook-records';
import type { ReadingsBatch } from '../../shared/contracts/webhook-events';
import { documentClient, stack } from './stack';

/** One request a test receiver took. */
export interface ReceivedRequest {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The event it carried; `batches` for readings.received, the other types' fields beside it. */
  event: {
    id: string;
    type: string;
    time: string;
    version: number;
    data: { batches: ReadingsBatch[] } & Record<string, unknown>;
  };
}

type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/**
 * A real HTTP receiver on 127.0.0.1 (a port of its own): it records every request and answers as the test says (204 by
 * default), as a customer's receiver would.
 */
export const startReceiver = async () => {
  const requests: ReceivedRequest[] = [];
  let answer: (request: ReceivedRequest) => Answer = () => ({ status: 204 });
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event = {} as ReceivedRequest['event'];
      try {
        event = JSON.parse(body);
      } catch {
        // Kept as it came: the test reads `body`.
      }
      const request = { at: Date.now(), path: incoming.url ?? '/', headers: incoming.headers, body, event };
      requests.push(request);
      const reply = answer(request);
      setTimeout(() => {
        outgoing.writeHead(reply.status, reply.headers ?? {});
        outgoing.end(reply.body ?? '');
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    answerWith: (next: (request: ReceivedRequest) => Answer) => {
      answer = next;
    },
    /** Requests carrying events of a type. */
    of: (type: string) => requests.filter((request) => request.event.type === type),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The lane item of a webhook as stored (who holds it, its timer, the delivery under way). */
export const laneOf = async (webhookId: string) =>
  (
    await documentClient().send(
      new GetCommand({
        TableName: stack().tables.webhookDeliveries!,
        Key: { webhookId, sk: LANE_SK },
        ConsistentRead: true,
      }),
    )
  ).Item;
