import { getDocumentClient, getS3Client, getSqsClient } from '../../functions/_shared/clients';

/** What the counter needs of an SDK client: its middleware stack. */
interface SdkClient {
  middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void };
}

/**
 * Counts the requests some SDK clients send: a middleware on each. A call is one command sent; a round trip is a run
 * of calls in flight together, so two calls side by side count once. Round trips are only meaningful while one
 * request (of the gateway, or of the bench's own raw calls) runs at a time.
 */
export const countCalls = (clients: readonly SdkClient[]) => {
  let calls = 0;
  let roundTrips = 0;
  let inFlight = 0;
  const counted =
    <A, R>(next: (args: A) => Promise<R>) =>
    async (args: A): Promise<R> => {
      calls += 1;
      if (inFlight++ === 0) roundTrips += 1;
      try {
        return await next(args);
      } finally {
        inFlight -= 1;
      }
    };
  for (const client of clients) {
    client.middlewareStack.add(counted as never, { step: 'initialize', name: 'benchCallCounter' });
  }
  return {
    /** Runs `op` `times` times one after another; answers the calls and sequential round trips per run. */
    perRequest: async (op: () => Promise<unknown>, times = 50) => {
      const before = { calls, roundTrips };
      for (let i = 0; i < times; i++) await op();
      return { calls: (calls - before.calls) / times, roundTrips: (roundTrips - before.roundTrips) / times };
    },
  };
};

/**
 * The calls the handlers make to the stores and the queue: the clients they share (the local gateway runs them in
 * this process: DynamoDB, S3, SQS), so the bench's own raw clients are never counted here.
 */
export const countStoreCalls = () => countCalls([getDocumentClient(), getS3Client(), getSqsClient()]);
