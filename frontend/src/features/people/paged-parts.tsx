import type { PagedList } from './use-paged-list';

type More = Pick<PagedList<{ id: string }>, 'nextCursor' | 'loading' | 'loadMore'>;

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

/** A change's outcome in words, announced politely (errors use ErrorAlert, announced at once). */
export const DoneNote = ({ text, testId }: { text: string | undefined; testId: string }) =>
  text && (
    <p className="notice" role="status" data-testid={testId}>
      {text}
    </p>
  );
