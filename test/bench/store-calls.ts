import { getDocumentClient, getS3Client } from '../../functions/_shared/clients';

/**
 * Counts the store requests the handlers make: an SDK middleware on the clients the handlers share (the local
 * gateway runs them in this process), so the bench's own raw clients are never counted. A call is one command
 * sent (DynamoDB or S3); a round trip is a run of calls in flight together, so two calls side by side count once.
 * Round trips are only meaningful while one gateway request runs at a time.
 */
export const countStoreCalls = () => {
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
  const options = { step: 'initialize', name: 'benchStoreCallCounter' } as const;
  getDocumentClient().middlewareStack.add(counted, options);
  getS3Client().middlewareStack.add(counted, options);
  return {
    /** Runs `op` `times` times one after another; answers the store calls and round trips per run. */
    perRequest: async (op: () => Promise<unknown>, times = 50) => {
      const before = { calls, roundTrips };
      for (let i = 0; i < times; i++) await op();
      return { calls: (calls - before.calls) / times, roundTrips: (roundTrips - before.roundTrips) / times };
    },
  };
};
