/** One page of a list: what the API answers (`page(...)` in the contracts). */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * What a list screen shows of its read (components/paged-list.tsx): `usePagedQuery`/`useRoutePages` answer it for
 * a paged route, `queryList` for a route that answers one page.
 */
export interface ListState<T extends { id: string }> {
  items: readonly T[];
  nextCursor?: string;
  /** The first page is on its way, or a further one. */
  loading?: 'first' | 'more';
  /** The first page has come. */
  loaded: boolean;
  error?: string;
  loadMore?: () => Promise<void>;
}

export type ListLoader<T> = (cursor: string | undefined) => Promise<ListPage<T>>;

/**
 * Adds a further page to the shown list. A row already shown (one just added on screen, or one that moved
 * between pages as the list changed) keeps its place, with the page's newer copy.
 */
export const appendPage = <T extends { id: string }>(shown: readonly T[], page: readonly T[]): T[] => {
  const fresh = new Map(page.map((item) => [item.id, item]));
  const known = new Set(shown.map((item) => item.id));
  return [...shown.map((item) => fresh.get(item.id) ?? item), ...page.filter((item) => !known.has(item.id))];
};
