import { jest } from '@jest/globals';
import { QueryClient } from '@tanstack/react-query';
import { FIRST_READ_WAIT_MS, firstAnswer } from './first-reads';

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** A read whose answer the test gives when it likes. */
const heldRead = (key: string) => {
  let answer!: (value: string) => void;
  let refuse!: (error: Error) => void;
  const queryFn = jest.fn(
    () =>
      new Promise<string>((resolve, reject) => {
        answer = resolve;
        refuse = reject;
      }),
  );
  return {
    read: { queryKey: [key], queryFn },
    queryFn,
    answer: (v: string) => answer(v),
    refuse: (e: Error) => refuse(e),
  };
};

describe('a screen’s first reads', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('starts the read once, waits on one promise until it answers, and gives that one, settled, once it has', async () => {
    const queries = client();
    const { read, queryFn, answer } = heldRead('bar');
    const wait = firstAnswer(queries, read);
    expect(wait).toBeInstanceOf(Promise);
    expect(firstAnswer(queries, read)).toBe(wait);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(wait).not.toHaveProperty('status', 'fulfilled');

    answer('banners');
    await wait;
    expect(queries.getQueryData(['bar'])).toBe('banners');
    // The screen that suspended on it calls use() with it again when it finishes (React warns of one that does not);
    // marked fulfilled as React marks the promises it was given, use() reads it at once.
    expect(firstAnswer(queries, read)).toBe(wait);
    expect(wait).toHaveProperty('status', 'fulfilled');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('has no wait for a read that answered before any screen waited for it', async () => {
    const queries = client();
    queries.setQueryData(['bar'], 'banners');
    const { read, queryFn } = heldRead('bar');
    expect(firstAnswer(queries, read)).toBeUndefined();
    expect(queryFn).not.toHaveBeenCalled();
  });

  it('settles, never throws, when the read fails: the screen shows the failure itself', async () => {
    const queries = client();
    const { read, refuse } = heldRead('cart');
    const wait = firstAnswer(queries, read);
    refuse(new Error('503'));
    await expect(wait).resolves.toBeUndefined();
    expect(firstAnswer(queries, read)).toHaveProperty('status', 'fulfilled');
  });

  it('waits again after the cache is cleared (a new person signed in): the old answer is not theirs', async () => {
    const queries = client();
    const first = heldRead('bar');
    const wait = firstAnswer(queries, first.read);
    first.answer('one person’s banners');
    await wait;
    queries.clear();
    const second = heldRead('bar');
    const again = firstAnswer(queries, second.read);
    expect(again).toBeInstanceOf(Promise);
    expect(again).not.toBe(wait);
  });

  it('stops waiting after FIRST_READ_WAIT_MS for a read that does not answer, and the read goes on', async () => {
    jest.useFakeTimers();
    const queries = client();
    const { read, answer } = heldRead('slow');
    let over = false;
    void firstAnswer(queries, read)!.then(() => {
      over = true;
    });
    await jest.advanceTimersByTimeAsync(FIRST_READ_WAIT_MS - 1);
    expect(over).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(over).toBe(true);
    answer('late');
    await jest.advanceTimersByTimeAsync(0);
    expect(queries.getQueryData(['slow'])).toBe('late');
  });
});
