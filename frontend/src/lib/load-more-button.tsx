import type { PagedList } from './query';

type More = Pick<PagedList<{ id: string }>, 'nextCursor' | 'loading' | 'loadMore'>;

/** The next page of a paged list; shown only while there is one. */
export const LoadMoreButton = ({ list, testId }: { list: More; testId: string }) =>
  list.nextCursor && (
    <button
      type="button"
      className="load-more"
      data-testid={testId}
      onClick={() => void list.loadMore()}
      disabled={list.loading !== undefined}
    >
      {list.loading === 'more' ? 'Loading…' : 'Load more'}
    </button>
  );
