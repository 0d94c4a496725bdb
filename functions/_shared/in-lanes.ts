/**
 * Works through `items` with at most `lanes` calls of `work` in flight, and answers the results in the items' order.
 * A failure rejects at once; calls already started run on. For store and mail fan-outs that must not open a request
 * per item at once (SDK sockets, a service's rate).
 */
export const inLanes = async <T, R>(
  items: readonly T[],
  lanes: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
};
