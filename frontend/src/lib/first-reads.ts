import {
  type FetchInfiniteQueryOptions,
  type FetchQueryOptions,
  type Query,
  type QueryClient,
  type QueryKey,
  useQueryClient,
} from '@tanstack/react-query';
import { type FulfilledReactPromise, use } from 'react';

/**
 * A screen shown with its first reads (docs/frontend-layout.md, "No lost clicks"): what a read brings in after the
 * screen is drawn (a banner above the page, a list's rows above a link) moves what is under the pointer, and a click
 * whose press and release land on different elements does nothing. So a screen whose first reads sit above anything
 * a person can press waits for them under the router's Suspense: a navigation keeps the previous page until they
 * have answered, a first load shows the loading page. A read that fails settles too (the screen shows its error).
 */

/**
 * How long a screen waits for its first reads before it shows without them: a read this slow is a service in
 * trouble, and the page is of more use drawn than held. The read goes on; its answer then arrives late.
 */
export const FIRST_READ_WAIT_MS = 10_000;

/**
 * One wait per query in the cache: every render of a screen that waited calls `use()` with the same one, settled or
 * not. React warns of a component that suspended in `use()` and then finished a render without calling it
 * (https://react.dev/warnings/conditional-use-of-use), and a settled wait (a timed-out read has no answer yet) is
 * read past at once.
 */
const waits = new WeakMap<Query, Promise<void>>();

/** A read as `routeQuery` (lib/query.ts) or a feature's query options give it. */
export type Read<T> = FetchQueryOptions<T, Error, T, QueryKey>;
/** A paged list's first page, as `routePagesQuery` (lib/query.ts) gives it. */
export type PagesRead<P> = FetchInfiniteQueryOptions<P, Error, P, QueryKey, string | undefined>;

const answered = (query: Query | undefined): boolean =>
  query !== undefined && (query.state.data !== undefined || query.state.status === 'error');

/**
 * The wait for a query's first answer, starting it (`start`) if nobody has: the same one, settled, once it has
 * answered; undefined for a query that answered before anyone waited for it.
 */
const firstWait = (
  client: QueryClient,
  queryKey: QueryKey,
  start: () => Promise<unknown>,
): Promise<void> | undefined => {
  const cache = client.getQueryCache();
  const found = cache.find({ queryKey, exact: true });
  const known = found && waits.get(found);
  if (known) return known;
  if (answered(found)) return undefined;
  // fetchQuery (and fetchInfiniteQuery) builds the query in the cache at once (so a cleared cache gets a new query and a new wait), and joins
  // a read already under way rather than sending a second.
  const fetching = start();
  const query = cache.find({ queryKey, exact: true })!;
  const wait = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_READ_WAIT_MS);
    void fetching
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
  // Marked settled as React marks the promises use() was given (its ReactPromise), so that use() reads a settled wait
  // at once, also one that settled before any render gave it to use().
  void wait.then(() => {
    const settled: Pick<FulfilledReactPromise<void>, 'status' | 'value'> = { status: 'fulfilled', value: undefined };
    Object.assign(wait, settled);
  });
  waits.set(query, wait);
  return wait;
};

/** The wait for a read's first answer, starting the read if nobody has; undefined when it answered unwaited for. */
export const firstAnswer = <T>(client: QueryClient, read: Read<T>): Promise<void> | undefined =>
  firstWait(client, read.queryKey, () => client.fetchQuery(read));

/** Suspends the calling screen on each wait not settled yet; a settled one (marked fulfilled) use() reads at once. */
export const suspendOn = (pending: readonly (Promise<void> | undefined)[]): void => {
  for (const wait of pending) if (wait) use(wait);
};

/** The wait for a paged list's first page, starting it if nobody has; undefined when it answered unwaited for. */
export const firstPage = <P>(client: QueryClient, read: PagesRead<P>): Promise<void> | undefined =>
  firstWait(client, read.queryKey, () => client.fetchInfiniteQuery(read));

/**
 * Suspends the calling screen until each read has answered once (or failed, or FIRST_READ_WAIT_MS passed); the
 * screen then reads them with `useQuery` as usual, from the cache. All of them are started before the first wait;
 * an undefined read (nobody signed in, say) is none.
 */
export const useFirstReads = <T extends unknown[]>(...reads: { [K in keyof T]: Read<T[K]> | undefined }): void => {
  const client = useQueryClient();
  suspendOn(reads.map((read) => read && firstAnswer(client, read)));
};

/** `useFirstReads` for paged lists: suspends until the first page of each has answered (or failed, or the wait ran out). */
export const useFirstPages = <T extends unknown[]>(...reads: { [K in keyof T]: PagesRead<T[K]> | undefined }): void => {
  const client = useQueryClient();
  suspendOn(reads.map((read) => read && firstPage(client, read)));
};
