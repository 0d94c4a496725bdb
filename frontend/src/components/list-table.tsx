import type { ReactNode } from 'react';
import { TableScroll } from './table-scroll';

/** `data-*` attributes for an element, e.g. a test id or a state the stylesheet or a test reads. */
export type DataAttributes = { [name: `data-${string}`]: string | undefined };

/** One column: its header and what a row shows in it. The first column names the row (a row header). */
export interface Column<T> {
  header: string;
  /** The header is for screen readers only (a column of checkboxes). */
  hideHeader?: boolean;
  /** This column, not the first, names the row (the first holds a control). */
  rowHeader?: boolean;
  cell: (row: T) => ReactNode;
  /** The cells' class. */
  className?: string;
  /** Further attributes of a row's cell in this column (its test id, a state). */
  cellData?: (row: T) => DataAttributes;
}

interface ListTableProps<T> {
  /** What the table lists ("API keys"): its accessible name, and the scroll region's. */
  label?: string;
  /** Or the id of the heading that names it. */
  labelledBy?: string;
  testId?: string;
  /** `false` leaves a column out (one the viewer is not shown). */
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowTestId?: (row: T) => string;
  /** Further attributes of a row (a state the stylesheet reads). */
  rowData?: (row: T) => DataAttributes;
  /** A table of its own look (the tier editor's grid, which stays a grid on a phone). @default 'table' */
  className?: string;
}

/**
 * The shell of every table: the header from the columns, one row per item with its first cell (or the `rowHeader`) as the row's
 * header, inside the frame that scrolls a wide table in its card. Below 640 px the stylesheet stacks each row
 * into a block and every other cell shows its column's name (`data-label`), so nothing scrolls sideways. A row
 * is one item of its list (`data-list-item`, components/paged-list.tsx).
 */
export const ListTable = <T,>({
  label,
  labelledBy,
  testId,
  columns,
  rows,
  rowKey,
  rowTestId,
  rowData,
  className = 'table',
}: ListTableProps<T>) => {
  const shown = columns.filter((column) => column !== false);
  const header = Math.max(
    0,
    shown.findIndex((column) => column.rowHeader),
  );
  return (
    <TableScroll label={label} labelledBy={labelledBy}>
      <table className={className} aria-label={label} aria-labelledby={labelledBy} data-testid={testId}>
        <thead>
          <tr>
            {shown.map((column) => (
              <th scope="col" key={column.header}>
                {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-list-item={rowKey(row)} data-testid={rowTestId?.(row)} {...rowData?.(row)}>
              {shown.map((column, index) =>
                index === header ? (
                  <th key={column.header} scope="row" className={column.className} {...column.cellData?.(row)}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td
                    key={column.header}
                    data-label={column.header}
                    className={column.className}
                    {...column.cellData?.(row)}
                  >
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
};
