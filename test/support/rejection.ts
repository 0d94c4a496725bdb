/** The error a promise was rejected with; fails the test when it resolved instead. */
export const rejectionOf = async (promise: Promise<unknown>): Promise<Error & { status?: number }> => {
  const outcome = await promise.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error('Expected a refusal, but the call succeeded');
  return outcome.error as Error & { status?: number };
};
