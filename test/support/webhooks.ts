import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
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

/**
 * A receiver of its own for each test of the file: started before the test, stopped after it, so a test reads only
 * the requests its own webhooks made. Call at the top level of the file (once per receiver a test needs); the
 * returned function gives the running test's receiver.
 */
export const receiverPerTest = (): (() => Receiver) => {
  let receiver: Receiver | undefined;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver?.stop();
    receiver = undefined;
  });
  return () => {
    if (!receiver) throw new Error('No receiver: receiverPerTest() gives one only while a test runs');
    return receiver;
  };
};

/**
 * The event of a received request as a customer's receiver reads it: verified with the webhook's secret by the
 * `standardwebhooks` package (signature, id and timestamp headers), which throws on a request the secret did not sign.
 */
export const verifiedWith = (secret: string, request: Pick<ReceivedRequest, 'body' | 'headers'>): unknown =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

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

/** Every item the deliveries table holds under a webhook's id (its lane, waiting events, log), read consistently. */
export const deliveryItems = async (webhookId: string): Promise<Record<string, unknown>[]> =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: stack().tables.webhookDeliveries!,
        KeyConditionExpression: 'webhookId = :id',
        ExpressionAttributeValues: { ':id': webhookId },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];
