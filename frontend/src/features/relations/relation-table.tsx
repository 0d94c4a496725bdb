import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Relation } from '../../../../shared/contracts/relations';
import { TableScroll } from '../../components/table-scroll';
import { LoadMoreButton } from '../../lib/load-more-button';
import { guardedKindOf, objectPath } from './relation-groups';
import type { PagedRelations } from './relations-api';

/**
 * An end of a relation, linked to its object's page when that kind of object has one; by its name, the id beside it,
 * when the name is known (lib/object-names).
 */
export const ObjectLink = ({ kind, id, name }: { kind: string | undefined; id: string; name?: string }) => {
  const guarded = kind && guardedKindOf(kind);
  const text = name ?? id;
  return (
    <>
      {guarded ? <Link to={objectPath(guarded, id)}>{text}</Link> : text}
      {name !== undefined && <span className="object-id">{id}</span>}
    </>
  );
};

/** A row's destructive action, named with its subject for screen readers ("Delete rel-1"). */
export const DangerButton = ({
  testId,
  action,
  subject,
  onClick,
  disabled,
}: {
  testId: string;
  action: string;
  subject: string;
  onClick: () => void;
  disabled: boolean;
}) => (
  <button
    type="button"
    className="danger"
    data-testid={testId}
    aria-label={`${action} ${subject}`}
    onClick={onClick}
    disabled={disabled}
  >
    {action}
  </button>
);

interface PagedTableProps {
  list: PagedRelations;
  /** The table's accessible name: a label, or the id of a heading that names it. */
  label?: string;
  labelledBy?: string;
  /** Column headings; `false` leaves a column out. */
  columns: readonly (string | false)[];
  row: (relation: Relation) => ReactNode;
  loadingText: string;
  empty: string;
  emptyTestId?: string;
  loadMoreTestId: string;
}

/** A paged list of relations as a table, a row each, with its loading and empty notes and "load more". */
export const PagedTable = ({
  list,
  label,
  labelledBy,
  columns,
  row,
  loadingText,
  empty,
  emptyTestId,
  loadMoreTestId,
}: PagedTableProps) => (
  <>
    <TableScroll label={label} labelledBy={labelledBy}>
      <table className="table" aria-label={label} aria-labelledby={labelledBy} aria-busy={list.loading === 'first'}>
        <thead>
          <tr>
            {columns
              .filter((column) => column !== false)
              .map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{list.items.map((relation) => row(relation))}</tbody>
      </table>
    </TableScroll>
    {list.loading === 'first' && <p className="muted">{loadingText}</p>}
    {list.loaded && list.items.length === 0 && !list.nextCursor && (
      <p className="muted" data-testid={emptyTestId}>
        {empty}
      </p>
    )}
    <LoadMoreButton list={list} testId={loadMoreTestId} />
  </>
);
