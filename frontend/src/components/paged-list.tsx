import { type ReactNode, useEffect, useRef } from 'react';
import { takeLostFocus } from '../lib/lost-focus';
import type { ListState } from '../lib/paged-list';
import { ErrorAlert } from './form-parts';

/**
 * Marks the element that shows one item of a paged list (a table's row is marked by ListTable), so the item that
 * a last "Load more" brought can take the focus the button held.
 */
export const listItem = (id: string) => ({ 'data-list-item': id });

interface PagedListProps<T extends { id: string }> {
  list: ListState<T>;
  /** Names the list's parts: the test ids `{name}-error`, `{name}-empty` and `{name}-load-more`. */
  name: string;
  /** Shown while the first page is on its way. @default 'Loading…' */
  loadingText?: string;
  /** Shown once the list is read and holds nothing. Without it the items are always drawn and say so themselves. */
  empty?: ReactNode;
  /** A change made to the list (a row's action) that failed: shown in the list's alert, before the read's failure. */
  error?: string;
  /** The page shows the read's failure itself, above the list with others (a panel's one alert). */
  errorShownAbove?: boolean;
  /** The items (a ListTable, or a list whose items carry `listItem(id)`); drawn once there is one (see `empty`). */
  children: ReactNode;
}

/**
 * Every list screen's frame: its alert, the items, "Loading…" while the first page comes, the empty note once
 * there is nothing (and no further page), and "Load more" while there is a next page. The button keeps the focus
 * while it loads (it is never disabled, which would drop the focus to the page); once the last page has come and
 * the button is gone, the first item that page brought takes the focus (lib/lost-focus.ts), so the keyboard and
 * the screen reader go on from what is new.
 */
export const PagedList = <T extends { id: string }>({
  list,
  name,
  loadingText = 'Loading…',
  empty,
  error,
  errorShownAbove = false,
  children,
}: PagedListProps<T>) => {
  const frame = useRef<HTMLDivElement>(null);
  /** How many items were shown when "Load more" was pressed, until its page has come. */
  const asked = useRef<number | undefined>(undefined);
  const { items, loading } = list;

  useEffect(() => {
    const shown = asked.current;
    if (shown === undefined || loading === 'more') return;
    asked.current = undefined;
    // The first item the page brought; a last page that brought none leaves the focus on the last item shown.
    const id = (items[shown] ?? items[shown - 1])?.id;
    const marked = frame.current?.querySelectorAll<HTMLElement>('[data-list-item]') ?? [];
    const item = [...marked].find((element) => element.dataset.listItem === id) ?? null;
    if (item && !item.hasAttribute('tabindex')) item.tabIndex = -1;
    takeLostFocus(item);
  }, [items, loading]);

  const more = () => {
    if (loading || !list.loadMore) return;
    asked.current = items.length;
    void list.loadMore();
  };

  return (
    <div ref={frame}>
      <ErrorAlert testId={`${name}-error`} error={error ?? (errorShownAbove ? undefined : list.error)} />
      {(items.length > 0 || !empty) && children}
      {loading === 'first' && <p className="muted">{loadingText}</p>}
      {empty && list.loaded && items.length === 0 && !list.nextCursor && (
        <p className="muted" data-testid={`${name}-empty`}>
          {empty}
        </p>
      )}
      {list.nextCursor && (
        <button
          type="button"
          className="load-more"
          data-testid={`${name}-load-more`}
          aria-disabled={loading !== undefined || undefined}
          onClick={more}
        >
          {loading === 'more' ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
};
