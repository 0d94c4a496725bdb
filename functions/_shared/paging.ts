import { MESSAGES } from '../../shared/messages';
import { decodeCursor, encodeCursor } from './cursor';
import { BadRequest } from './errors';

type Key = Record<string, unknown>;

/** One page a store read: its items, and the key the next page starts from (undefined: no more). */
export interface StoredPage<T> {
  items: T[];
  lastKey?: Key;
}

/** Where a store's page read starts and how many items it may take. */
export interface PageRead {
  limit: number;
  startKey?: Key;
}

/** One source of a paged list: a Query that continues from `startKey`. */
export type PageSource<T> = (startKey: Key | undefined, limit: number) => Promise<{ items: T[]; lastKey?: Key }>;

/** A source read to its end: each page continues from the key the one before stopped at. */
export type PageReader<T> = (startKey: Key | undefined) => Promise<{ items: T[]; lastKey?: Key }>;

/**
 * Every page of a source in turn, each read only once the one before has been taken: a job that has what it
 * needs stops reading, and one that works page by page never holds the whole source.
 */
export async function* eachPage<T>(read: PageReader<T>): AsyncGenerator<T[]> {
  let startKey: Key | undefined;
  do {
    const page = await read(startKey);
    yield page.items;
    startKey = page.lastKey;
  } while (startKey);
}

/** Every item of a source, through all its pages, in the source's order: for jobs, never for an API list. */
export const readAll = async <T>(read: PageReader<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const items of eachPage(read)) all.push(...items);
  return all;
};

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
 * One page of one Query, with an opaque cursor: the key it stopped at, base64url JSON (the format the web app's
 * cursors have always had, so a cursor it holds goes on working).
 */
export const cursorPage = async <T>(
  source: PageSource<T>,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ items: T[]; nextCursor?: string }> => {
  const page = await readFrom(source, decodeCursor(cursor), limit);
  const nextCursor = encodeCursor(page.lastKey);
  return { items: page.items, ...(nextCursor ? { nextCursor } : {}) };
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

/**
 * One page of a Query with a FilterExpression. DynamoDB applies `Limit` before the filter, so a page is read in up
 * to `rounds` Queries, each continuing where the last stopped. A round may ask for more than is left (`readSize`,
 * fewer round trips through sparse matches): what passes the page then waits behind the last item shown (`keyOf`).
 */
export const pageFiltered = async <T>(
  query: PageSource<Record<string, unknown>>,
  toItem: (raw: Record<string, unknown>) => T,
  { limit, cursor }: { limit: number; cursor?: string },
  {
    rounds = 5,
    readSize = (left: number) => left,
    keyOf,
  }: { rounds?: number; readSize?: (left: number) => number; keyOf?: (raw: Record<string, unknown>) => Key } = {},
): Promise<{ items: T[]; nextCursor?: string }> => {
  const raw: Record<string, unknown>[] = [];
  let startKey = decodeCursor(cursor);
  for (let round = 0; round < rounds && raw.length < limit; round += 1) {
    const result = await readFrom(query, startKey, readSize(limit - raw.length));
    raw.push(...result.items);
    startKey = result.lastKey;
    if (!startKey) break;
  }
  if (raw.length > limit) {
    if (!keyOf) throw new Error('A page read past its size needs keyOf to continue behind its last item');
    return { items: raw.slice(0, limit).map(toItem), nextCursor: encodeCursor(keyOf(raw[limit - 1]!)) };
  }
  return { items: raw.map(toItem), nextCursor: encodeCursor(startKey) };
};
