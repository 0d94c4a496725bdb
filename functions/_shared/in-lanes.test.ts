import { inLanes } from './in-lanes';

describe('inLanes', () => {
  it('answers every result in the items’ order, with no more than `lanes` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await inLanes([5, 1, 4, 2, 3], 2, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, n));
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('answers nothing for no items, and rejects with a failing call', async () => {
    expect(await inLanes([], 4, async () => 1)).toEqual([]);
    await expect(
      inLanes([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two');
      }),
    ).rejects.toThrow('two');
  });
});
