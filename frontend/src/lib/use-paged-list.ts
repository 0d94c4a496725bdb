import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from './error-message';
import { appendPage, type ListLoader } from './paged-list';

export type { ListLoader, ListPage } from './paged-list';

export interface PagedList<T> {
  items: T[];
  /** For changes made on screen, so the list needs no reload. */
  update: (change: (shown: T[]) => T[]) => void;
  nextCursor?: string;
  loading?: 'first' | 'more';
  loaded: boolean;
  error?: string;
  loadMore: () => Promise<void>;
  reload: () => void;
}

/**
 * One paged list of things with an id. A new `load` (memoize it) starts over from the first page; an answer
 * to an older `load` is dropped, so a slow first page cannot overwrite a newer search's list.
 */
export const usePagedList = <T extends { id: string }>(load: ListLoader<T> | undefined): PagedList<T> => {
  const [items, setItems] = useState<T[]>([]);
  const [nextCursor, setNextCursor] = useState<string>();
  const [loading, setLoading] = useState<'first' | 'more'>();
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  const generation = useRef(0);
  const listedBy = useRef(load);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `version` (reload()) is a reason to fetch again
  useEffect(() => {
    const current = ++generation.current;
    // A new search or filter clears the rows at once, so none of the old list is taken for the new one; a
    // reload of the same list keeps them on screen until the fresh page replaces them.
    if (listedBy.current !== load || !load) setItems([]);
    listedBy.current = load;
    setNextCursor(undefined);
    setLoaded(false);
    setError(undefined);
    if (!load) return setLoading(undefined);
    setLoading('first');
    load(undefined).then(
      (page) => {
        if (generation.current !== current) return;
        setItems(page.items);
        setNextCursor(page.nextCursor);
        setLoaded(true);
        setLoading(undefined);
      },
      (failure: unknown) => {
        if (generation.current !== current) return;
        setItems([]);
        setError(errorMessage(failure));
        setLoading(undefined);
      },
    );
  }, [load, version]);

  const loadMore = useCallback(async () => {
    if (!load || !nextCursor) return;
    const current = generation.current;
    setLoading('more');
    setError(undefined);
    try {
      const page = await load(nextCursor);
      if (generation.current !== current) return;
      setItems((shown) => appendPage(shown, page.items));
      setNextCursor(page.nextCursor);
    } catch (failure) {
      if (generation.current === current) setError(errorMessage(failure));
    } finally {
      if (generation.current === current) setLoading(undefined);
    }
  }, [load, nextCursor]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { items, update: setItems, nextCursor, loading, loaded, error, loadMore, reload };
};
