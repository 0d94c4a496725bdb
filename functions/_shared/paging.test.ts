import fc from 'fast-check';
import { MESSAGES } from '../../shared/messages';
import { encodeCursor } from './cursor';
import { BadRequest } from './errors';
import { cursorPage, eachPage, type PageSource, pageAcross, pageFiltered, readAll } from './paging';

type Key = Record<string, unknown>;

/**
 * A Query over a fixed list. Like DynamoDB, `keyAtEnd` also returns a LastEvaluatedKey when a page ends
 * exactly at the last item.
 */
const source = (items: string[], { keyAtEnd = false } = {}) => {
  const asked: { startKey?: Key; limit: number }[] = [];
  const read: PageSource<string> = async (startKey, limit) => {
    asked.push({ startKey, limit });
    const start = typeof startKey?.at === 'number' ? startKey.at : 0;
    const end = start + limit;
    const more = keyAtEnd ? end <= items.length : end < items.length;
    return { items: items.slice(start, end), ...(more ? { lastKey: { at: end } } : {}) };
  };
  return Object.assign(read, { asked });
};

/** Every page in turn, as a client walks them with the cursors it is given. */
const walkPages = async <T>(
  pageOf: (request: { limit: number; cursor?: string }) => Promise<{ items: T[]; nextCursor?: string }>,
  limit: number,
) => {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = await pageOf({ limit, ...(cursor ? { cursor } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    pages.push(page.items);
    cursor = page.nextCursor;
    if (pages.length > 200) throw new Error('the cursor never ends');
  } while (cursor);
  return pages;
};

const walk = (
  sources: readonly PageSource<string>[],
  limit: number,
  seenBefore?: (item: string, index: number) => boolean,
) => walkPages((request) => pageAcross(sources, request, seenBefore), limit);

const A = ['a1', 'a2', 'a3'];
const B = ['b1', 'b2'];
const C = ['c1', 'c2', 'c3', 'c4'];

describe('pageAcross', () => {
  it('fills a page from the next source when one runs out', async () => {
    const page = await pageAcross([source(A), source(B), source(C)], { limit: 4 });
    expect(page.items).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(page.nextCursor).toBeDefined();
  });

  it('asks each source only for what the page still lacks', async () => {
    const a = source(A);
    const b = source(B);
    await pageAcross([a, b], { limit: 4 });
    expect(a.asked).toEqual([{ startKey: undefined, limit: 4 }]);
    expect(b.asked).toEqual([{ startKey: undefined, limit: 1 }]);
  });

  it('continues exactly where the page stopped, inside a source', async () => {
    const b = source(B);
    const first = await pageAcross([source(A), b], { limit: 4 });
    const second = await pageAcross([source(A), b], { limit: 4, cursor: first.nextCursor! });
    expect(second.items).toEqual(['b2']);
    expect(b.asked.at(-1)).toEqual({ startKey: { at: 1 }, limit: 4 });
    expect(second.nextCursor).toBeUndefined();
  });

  it('gives no cursor on the last page', async () => {
    expect(await pageAcross([source(A), source(B)], { limit: 10 })).toEqual({ items: [...A, ...B] });
  });

  it('answers an empty list with an empty page and no cursor', async () => {
    expect(await pageAcross([source([]), source([])], { limit: 3 })).toEqual({ items: [] });
    expect(await pageAcross<string>([], { limit: 3 })).toEqual({ items: [] });
  });

  describe.each([false, true])('walking every page (key at the exact end: %s)', (keyAtEnd) => {
    it.each([1, 2, 3, 4, 5, 9, 10, 50])('with %i per page, shows every item once, in order', async (limit) => {
      const sources = [
        source(A, { keyAtEnd }),
        source([], { keyAtEnd }),
        source(B, { keyAtEnd }),
        source(C, { keyAtEnd }),
      ];
      const pages = await walk(sources, limit);
      expect(pages.flat()).toEqual([...A, ...B, ...C]);
      // Every page but the last is full: no short page in the middle of the list.
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
    });
  });

  describe('seenBefore', () => {
    const X = ['x', 'shared-1', 'y'];
    const Y = ['shared-1', 'z', 'shared-2'];
    const Z = ['shared-2', 'w'];
    const lists = [X, Y, Z];
    const seenBefore = (item: string, index: number) => lists.slice(0, index).some((list) => list.includes(item));

    it('drops an item an earlier source returned, and still fills the page', async () => {
      const page = await pageAcross([source(X), source(Y), source(Z)], { limit: 5 }, seenBefore);
      expect(page.items).toEqual(['x', 'shared-1', 'y', 'z', 'shared-2']);
    });

    it.each([1, 2, 3, 4, 7])('with %i per page, the walk shows each item exactly once', async (limit) => {
      const pages = await walk([source(X), source(Y), source(Z)], limit, seenBefore);
      expect(pages.flat()).toEqual(['x', 'shared-1', 'y', 'z', 'shared-2', 'w']);
    });

    it('is told which source an item came from', async () => {
      const seen: [string, number][] = [];
      await pageAcross([source(['p']), source(['q'])], { limit: 5 }, (item, index) => {
        seen.push([item, index]);
        return false;
      });
      expect(seen).toEqual([
        ['p', 0],
        ['q', 1],
      ]);
    });
  });

  describe('a forged cursor', () => {
    const raw = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

    it.each([
      ['not base64 JSON', '%%%'],
      ['a JSON array', raw([0])],
      ['no source index', encodeCursor({ k: { at: 1 } })!],
      ['a negative source index', encodeCursor({ q: -1 })!],
      ['a fractional source index', encodeCursor({ q: 0.5 })!],
      ['a string source index', encodeCursor({ q: '1' })!],
      ['a source index beyond the list', encodeCursor({ q: 3 })!],
      ['a key that is not an object', encodeCursor({ q: 0, k: 'at' })!],
      ['a null key', encodeCursor({ q: 0, k: null })!],
    ])('with %s is a bad request', async (_case, cursor) => {
      const error = await pageAcross([source(A), source(B)], { limit: 2, cursor }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequest);
      expect((error as BadRequest).message).toBe(MESSAGES.invalidCursor);
    });

    it('naming a key the table refuses is a bad request, while other failures stay what they are', async () => {
      const refusing =
        (name: string): PageSource<string> =>
        async () => {
          throw Object.assign(new Error('The provided starting key is invalid'), { name });
        };
      const cursor = encodeCursor({ q: 0, k: { id: 42 } })!;
      await expect(pageAcross([refusing('ValidationException')], { limit: 2, cursor })).rejects.toThrow(
        new BadRequest(MESSAGES.invalidCursor),
      );
      await expect(
        pageAcross([refusing('ProvisionedThroughputExceededException')], { limit: 2, cursor }),
      ).rejects.not.toThrow(BadRequest);
      // Without a cursor the request is ours, so a refusal is a server fault, not the client's.
      await expect(pageAcross([refusing('ValidationException')], { limit: 2 })).rejects.not.toThrow(BadRequest);
    });

    it('does not reach any source', async () => {
      const a = source(A);
      await expect(pageAcross([a], { limit: 2, cursor: encodeCursor({ q: -1 })! })).rejects.toThrow(BadRequest);
      expect(a.asked).toEqual([]);
    });
  });
});

describe('pageFiltered', () => {
  /** A Query over 1..n that keeps even numbers, as DynamoDB does: `Limit` counts what was read, not what was kept. */
  const evens =
    (n: number, reads: number[]) => async (startKey: Record<string, unknown> | undefined, limit: number) => {
      reads.push(limit);
      const from = (startKey?.n as number | undefined) ?? 0;
      const read = Array.from({ length: Math.min(limit, n - from) }, (_, i) => from + i + 1);
      const last = read.at(-1);
      return {
        items: read.filter((v) => v % 2 === 0).map((v) => ({ n: v })),
        ...(last !== undefined && last < n ? { lastKey: { n: last } } : {}),
      };
    };
  const value = (raw: Record<string, unknown>) => raw.n as number;

  it('reads more rounds until the page is full, and continues where the last round stopped', async () => {
    const reads: number[] = [];
    const first = await pageFiltered(evens(20, reads), value, { limit: 4 });
    expect(first.items).toEqual([2, 4, 6, 8]);
    expect(reads).toEqual([4, 2, 1, 1]);
    const second = await pageFiltered(evens(20, []), value, { limit: 4, cursor: first.nextCursor });
    expect(second.items).toEqual([10, 12, 14, 16]);
  });

  it('stops after its rounds with what it found, and says where to go on', async () => {
    const page = await pageFiltered(evens(100, []), value, { limit: 10 }, { rounds: 1 });
    expect(page.items).toEqual([2, 4, 6, 8, 10]);
    expect((await pageFiltered(evens(100, []), value, { limit: 10, cursor: page.nextCursor })).items[0]).toBe(12);
  });

  it('cuts a round that read past the page and continues behind the last item shown', async () => {
    const page = await pageFiltered(evens(20, []), value, { limit: 3 }, { readSize: () => 10, keyOf: (raw) => raw });
    expect(page.items).toEqual([2, 4, 6]);
    expect((await pageFiltered(evens(20, []), value, { limit: 3, cursor: page.nextCursor })).items).toEqual([
      8, 10, 12,
    ]);
  });

  it('ends without a cursor when the Query has no more', async () => {
    expect(await pageFiltered(evens(6, []), value, { limit: 10 })).toEqual({ items: [2, 4, 6] });
  });
});

/**
 * A table as DynamoDB pages it: each read takes at most `limit` items (or the next of `sizes`, as a 1 MB page ends
 * wherever the items' sizes put it), and a page that ends exactly at the last item may still carry a key.
 */
const table = (items: readonly number[], sizes: readonly number[], keyAtEnd: boolean) => {
  const reads: (Record<string, unknown> | undefined)[] = [];
  let next = 0;
  const read = async (startKey: Record<string, unknown> | undefined, limit?: number) => {
    reads.push(startKey);
    const start = typeof startKey?.at === 'number' ? startKey.at : 0;
    const size = limit ?? sizes[next++ % sizes.length]!;
    const end = Math.min(start + size, items.length);
    const more = keyAtEnd ? end <= items.length && size > 0 && end > start : end < items.length;
    return { items: items.slice(start, end), ...(more ? { lastKey: { at: end } } : {}) };
  };
  return Object.assign(read, { reads });
};

describe('readAll', () => {
  it('over any page sizes returns every item once, in order, each page read from where the last stopped', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        async (items, sizes, keyAtEnd) => {
          const source = table(items, sizes, keyAtEnd);
          expect(await readAll((startKey) => source(startKey))).toEqual(items);
          // The first read starts at the beginning; each later one where the one before stopped.
          expect(source.reads[0]).toBeUndefined();
          expect(source.reads.slice(1).every((key, i) => key !== undefined && key.at !== source.reads[i]?.at)).toBe(
            true,
          );
        },
      ),
    );
  });

  it('reads once when the first page says there is no more', async () => {
    const source = table([1, 2, 3], [10], false);
    expect(await readAll((startKey) => source(startKey))).toEqual([1, 2, 3]);
    expect(source.reads).toEqual([undefined]);
  });

  it('fails as the read fails, with nothing half-answered', async () => {
    let reads = 0;
    const failing = async (startKey: Record<string, unknown> | undefined) => {
      reads += 1;
      if (startKey) throw new Error('throttled');
      return { items: [1], lastKey: { at: 1 } };
    };
    await expect(readAll(failing)).rejects.toThrow('throttled');
    expect(reads).toBe(2);
  });
});

describe('eachPage', () => {
  it('reads the next page only when it is asked for: a job that stops early reads no further', async () => {
    const source = table([1, 2, 3, 4, 5, 6, 7], [2], false);
    const seen: number[] = [];
    for await (const page of eachPage((startKey) => source(startKey))) {
      seen.push(...page);
      if (seen.length >= 3) break;
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(source.reads).toHaveLength(2);
  });
});

describe('cursorPage', () => {
  it('walked with any page size shows every item once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        async (items, limit, keyAtEnd) => {
          const source = table(items, [limit], keyAtEnd);
          expect((await walkPages((request) => cursorPage(source, request), limit)).flat()).toEqual(items);
        },
      ),
    );
  });

  it('keeps the cursor format the web app holds: the key the page stopped at, as base64url JSON', async () => {
    const source = table([1, 2, 3, 4, 5], [2], false);
    const page = await cursorPage(source, { limit: 2 });
    expect(page).toEqual({ items: [1, 2], nextCursor: encodeCursor({ at: 2 }) });
    // A cursor handed out before this helper existed was encodeCursor(LastEvaluatedKey): it reads on from there.
    expect(await cursorPage(source, { limit: 2, cursor: encodeCursor({ at: 4 })! })).toEqual({ items: [5] });
    expect(source.reads.at(-1)).toEqual({ at: 4 });
  });

  it('answers the last page without a cursor', async () => {
    expect(await cursorPage(table([1, 2], [5], false), { limit: 5 })).toEqual({ items: [1, 2] });
  });

  it('refuses a cursor that is not one, or names a key the table refuses, as a bad request', async () => {
    const source = table([1, 2], [5], false);
    await expect(cursorPage(source, { limit: 2, cursor: '%%%' })).rejects.toThrow(
      new BadRequest(MESSAGES.invalidCursor),
    );
    expect(source.reads).toEqual([]);
    const refusing: PageSource<number> = async () => {
      throw Object.assign(new Error('The provided starting key is invalid'), { name: 'ValidationException' });
    };
    await expect(cursorPage(refusing, { limit: 2, cursor: encodeCursor({ id: 42 })! })).rejects.toThrow(
      new BadRequest(MESSAGES.invalidCursor),
    );
  });
});
