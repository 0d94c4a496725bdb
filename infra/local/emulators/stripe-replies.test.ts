import { createReplies } from './stripe-replies';

describe('the local Stripe server’s idempotent replies', () => {
  it('keeps at most maxEntries, the oldest leaving first', () => {
    const replies = createReplies<number>({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) replies.set(`key-${i}`, i);
    expect(replies.size).toBe(100);
    expect(replies.get('key-9899')).toBeUndefined();
    expect(replies.get('key-9900')).toBe(9900);
    expect(replies.get('key-9999')).toBe(9999);
  });

  it('forgets a key after 24 hours, as Stripe does, and drops expired ones as new ones come', () => {
    let now = 1_000_000;
    const replies = createReplies<string>({ now: () => now });
    replies.set('a', 'first');
    now += 24 * 3_600_000 - 1;
    expect(replies.get('a')).toBe('first');
    replies.set('b', 'second');
    now += 1;
    expect(replies.get('a')).toBeUndefined();
    now += 10;
    replies.set('c', 'third');
    expect(replies.size).toBe(2);
    expect(replies.get('b')).toBe('second');
  });
});
