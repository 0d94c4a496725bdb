import { useCallback, useEffect, useRef, useState } from 'react';
import type { Relation } from '../../../../shared/contracts/relations';
import { errorMessage } from '../../lib/error-message';
import { appendRelations, type PageLoader } from './relation-list';

export interface PagedRelations {
  items: Relation[];
  /** For changes made on screen (add, remove, role change), so the list needs no reload. */
  update: (change: (shown: Relation[]) => Relation[]) => void;
  nextCursor?: string;
  loading?: 'first' | 'more';
  /** The first page has arrived. */
  loaded: boolean;
  error?: string;
  loadMore: () => Promise<void>;
}

/**
 * One paged list of relations. A new `load` (memoize it) starts over from the first page; an answer to
 * an older `load` is dropped, so a slow first page cannot overwrite a newer filter's list.
 */
export const usePagedRelations = (load: PageLoader | undefined): PagedRelations => {
  const [items, setItems] = useState<Relation[]>([]);
  const [nextCursor, setNextCursor] = useState<string>();
  const [loading, setLoading] = useState<'first' | 'more'>();
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string>();
  const generation = useRef(0);

  useEffect(() => {
    const current = ++generation.current;
    setItems([]);
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
        setError(errorMessage(failure));
        setLoading(undefined);
      },
    );
  }, [load]);

  const loadMore = useCallback(async () => {
    if (!load || !nextCursor) return;
    const current = generation.current;
    setLoading('more');
    setError(undefined);
    try {
      const page = await load(nextCursor);
      if (generation.current !== current) return;
      setItems((shown) => appendRelations(shown, page.items));
      setNextCursor(page.nextCursor);
    } catch (failure) {
      if (generation.current === current) setError(errorMessage(failure));
    } finally {
      if (generation.current === current) setLoading(undefined);
    }
  }, [load, nextCursor]);

  return { items, update: setItems, nextCursor, loading, loaded, error, loadMore };
};
