import { MESSAGES } from '../../shared/messages';
import { decodeCursor, encodeCursor } from './cursor';
import { BadRequest } from './errors';

type Key = Record<string, unknown>;

/** One source of a paged list: a Query that continues from `startKey`. */
export type PageSource<T> = (startKey: Key | undefined, limit: number) => Promise<{ items: T[]; lastKey?: Key }>;

const readCursor = (cursor: string | undefined): { q: number; k?: Key } => {
  const decoded = decodeCursor(cursor);
  if (!decoded) return { q: 0 };
  const { q, k } = decoded as { q?: unknown; k?: unknown };
  if (typeof q !== 'number' || !Number.isInteger(q) || q < 0 || (k !== undefined && (typeof k !== 'object' || !k))) {
    throw new BadRequest(MESSAGES.invalidCursor);
  }
  return { q, k: k as Key | undefined };
};

/** A cursor that decodes but names no real key makes DynamoDB refuse the request: that is the client's error. */
export const readFrom = async <P>(
  source: (startKey: Key | undefined, limit: number) => Promise<P>,
  startKey: Key | undefined,
  limit: number,
): Promise<P> => {
  try {
    return await source(startKey, limit);
  } catch (error) {
    if (startKey && error instanceof Error && error.name === 'ValidationException') {
      throw new BadRequest(MESSAGES.invalidCursor);
    }
    throw error;
  }
};

/**
 * One page over several Queries read one after another, with one opaque cursor (which Query, and where in
 * it). `seenBefore(item, i)` drops an item that an earlier Query of the list also returns, so an item
 * appears once across all pages without the cursor carrying what was shown.
 */
export const pageAcross = async <T>(
  sources: readonly PageSource<T>[],
  { limit, cursor }: { limit: number; cursor?: string },
  seenBefore: (item: T, source: number) => boolean = () => false,
): Promise<{ items: T[]; nextCursor?: string }> => {
  let { q, k } = readCursor(cursor);
  if (q > sources.length) throw new BadRequest(MESSAGES.invalidCursor);
  const items: T[] = [];
  while (q < sources.length && items.length < limit) {
    const page = await readFrom(sources[q]!, k, limit - items.length);
    items.push(...page.items.filter((item) => !seenBefore(item, q)));
    if (page.lastKey) {
      k = page.lastKey;
    } else {
      q += 1;
      k = undefined;
    }
  }
  return { items, nextCursor: q < sources.length ? encodeCursor({ q, ...(k ? { k } : {}) }) : undefined };
};
