import {
  infiniteQueryOptions,
  QueryClient,
  type QueryKey,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { AreaName } from '../../../shared/contracts/areas';
import { ApiError } from '../../../shared/contracts/client';
import { type ApiClient, apiClient } from './api';
import { errorMessage } from './error-message';
import { appendPage, type ListLoader, type ListPage, type ListState } from './paged-list';

export type { ListLoader, ListPage, ListState } from './paged-list';

/** How long an answer counts as fresh: a screen opened again within it shows the cached answer and asks nothing. */
export const STALE_MS = 30_000;
/** What is on screen is read again this often, so a change made elsewhere shows without a reload. */
export const REFRESH_MS = 60_000;

/** The app's one query client (docs/style.md §13): every read of server state goes through it. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_MS,
        refetchInterval: REFRESH_MS,
        refetchOnWindowFocus: true,
        // A 4xx is the API's answer (not found, forbidden, invalid): asking again changes nothing.
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      },
    },
  });

export const queryClient = createQueryClient();

/** A query's failure as the person reads it (the API's message), or undefined. */
export const errorOf = (query: { error: unknown }): string | undefined =>
  query.error ? errorMessage(query.error) : undefined;

/** A route that answers its whole list at once, as a list screen shows it (components/paged-list.tsx). */
export const queryList = <T extends { id: string }>(
  query: { isLoading: boolean; isSuccess: boolean; error: unknown },
  items: readonly T[] | undefined,
): ListState<T> => ({
  items: items ?? [],
  loading: query.isLoading ? 'first' : undefined,
  loaded: query.isSuccess,
  error: errorOf(query),
});

type RouteName<N extends AreaName> = keyof ApiClient<N> & string;
export type RequestOf<N extends AreaName, R extends RouteName<N>> = Parameters<ApiClient<N>[R]>[0];
export type ResponseOf<N extends AreaName, R extends RouteName<N>> = Awaited<ReturnType<ApiClient<N>[R]>>;

/**
 * The key of a route's answer, from the contract: `[area, route, request]` (docs/style.md §13). Without a request it is
 * the prefix of every request of the route, which is what a change invalidates when it may touch any of them.
 */
export const routeKey = <N extends AreaName, R extends RouteName<N>>(
  area: N,
  route: R,
  request?: RequestOf<N, R>,
): QueryKey => (request === undefined ? [area, route] : [area, route, request]);

/** Every read of one area: what a change invalidates when it may touch any of them (e.g. relations moved). */
export const areaKey = (area: AreaName): QueryKey => [area];

/** One route's answer as a query, through the typed client (the only way to call the API). */
export const routeQuery = <N extends AreaName, R extends RouteName<N>>(area: N, route: R, request: RequestOf<N, R>) =>
  queryOptions({
    queryKey: routeKey(area, route, request),
    queryFn: () =>
      (apiClient(area)[route] as unknown as (request: RequestOf<N, R>) => Promise<ResponseOf<N, R>>)(request),
  });

export interface PagedList<T> {
  items: T[];
  nextCursor?: string;
  loading?: 'first' | 'more';
  loaded: boolean;
  error?: string;
  loadMore: () => Promise<void>;
}

export interface PagedOptions<T> {
  /** How often the shown pages are read again, when not the app's default (`REFRESH_MS`). */
  refetchInterval?: number;
  /**
   * Each page's items in the order the screen shows them, when it is not the route's: each page is ordered alone, so
   * "Load more" still adds below what is shown (and the focus goes to the first item it brought).
   */
  order?: (items: readonly T[]) => T[];
}

/**
 * A paged list as an infinite query under `queryKey` (the route's key with the list's filters): pages are kept
 * in the cache, so going back shows the list at once, and a background refetch reads every shown page again.
 * `load` undefined: nothing to list yet (no search typed).
 */
export const usePagedQuery = <T extends { id: string }>(
  queryKey: QueryKey,
  load: ListLoader<T> | undefined,
  { refetchInterval, order }: PagedOptions<T> = {},
): PagedList<T> => {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => load!(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    enabled: load !== undefined,
    ...(refetchInterval === undefined ? {} : { refetchInterval }),
  });
  const pages = query.data?.pages;
  // A row that moved between pages as the list changed is shown once, in its first place.
  const items = useMemo(
    () => (pages ?? []).reduce<T[]>((shown, page) => appendPage(shown, order ? order(page.items) : page.items), []),
    [pages, order],
  );
  return {
    items,
    nextCursor: pages?.at(-1)?.nextCursor,
    loading: load && query.isPending ? 'first' : query.isFetchingNextPage ? 'more' : undefined,
    loaded: query.isSuccess,
    error: query.error ? errorMessage(query.error) : undefined,
    loadMore: async () => {
      await query.fetchNextPage();
    },
  };
};

type ItemOf<P> = P extends { items: readonly (infer T)[] } ? T : never;

/**
 * A paged route's list (its request's `query.cursor` walks the pages), keyed by the route and the rest of the
 * request. `enabled: false` lists nothing yet (e.g. no search typed).
 */
export const useRoutePages = <N extends AreaName, R extends RouteName<N>>(
  area: N,
  route: R,
  request: RequestOf<N, R>,
  { enabled = true, ...options }: { enabled?: boolean } & PagedOptions<ItemOf<ResponseOf<N, R>> & { id: string }> = {},
): PagedList<ItemOf<ResponseOf<N, R>> & { id: string }> =>
  usePagedQuery(routeKey(area, route, request), enabled ? pageLoader(area, route, request) : undefined, options);

/** A paged route's loader: one page from a cursor. */
const pageLoader = <N extends AreaName, R extends RouteName<N>>(area: N, route: R, request: RequestOf<N, R>) => {
  type Item = ItemOf<ResponseOf<N, R>> & { id: string };
  const call = apiClient(area)[route] as unknown as (request: unknown) => Promise<ListPage<Item>>;
  const { query, ...rest } = request as { query?: Record<string, unknown> };
  const load: ListLoader<Item> = (cursor) => call({ ...rest, query: { ...query, cursor } });
  return load;
};

/**
 * A paged route's first page as `useRoutePages` reads it (the same key and loader): for a screen drawn with its first
 * reads (lib/first-reads.ts).
 */
export const routePagesQuery = <N extends AreaName, R extends RouteName<N>>(
  area: N,
  route: R,
  request: RequestOf<N, R>,
) => {
  const load = pageLoader(area, route, request);
  return infiniteQueryOptions({
    queryKey: routeKey(area, route, request),
    queryFn: ({ pageParam }: { pageParam: string | undefined }) => load(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ListPage<ItemOf<ResponseOf<N, R>> & { id: string }>) => last.nextCursor,
  });
};

interface Change<Busy extends string> {
  what: Busy;
  action: () => Promise<unknown>;
  /** The keys (or key prefixes) of what the change touches: read again once it succeeds. */
  invalidates: readonly QueryKey[];
}

/**
 * A screen's changes as one mutation, one at a time: which is under way (its controls wait), why the last one
 * failed (the API's message, or a check's refusal set through `setError`), and on success the queries it names
 * are invalidated, so every panel showing them reads them again.
 */
export const useChanges = <Busy extends string = string>() => {
  const client = useQueryClient();
  const [refused, setError] = useState<string>();
  const mutation = useMutation({
    mutationFn: async ({ action }: Change<Busy>) => {
      await action();
    },
    onSuccess: (_done, { invalidates }) =>
      Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  const run = async (what: Busy, action: () => Promise<unknown>, invalidates: readonly QueryKey[] = []) => {
    setError(undefined);
    await mutation.mutateAsync({ what, action, invalidates }).catch(() => undefined);
  };
  return {
    busy: mutation.isPending ? mutation.variables?.what : undefined,
    error: refused ?? (mutation.error ? errorMessage(mutation.error) : undefined),
    setError,
    run,
  };
};

/**
 * `useChanges` for changes that say what they did ("Deletion queued."): `done` holds the last one's words until the
 * next change starts; `run`'s action answers them (or nothing to say).
 */
export const useSaidChanges = <Busy extends string = string>() => {
  const changes = useChanges<Busy>();
  const [done, setDone] = useState<string>();
  const run = async (what: Busy, action: () => Promise<string | undefined>, invalidates: readonly QueryKey[] = []) => {
    setDone(undefined);
    let said: string | undefined;
    await changes.run(what, async () => (said = await action()), invalidates);
    // Said once what the change touched was read again, so the words never stand beside the old state.
    setDone(said);
  };
  return { ...changes, done, run };
};
