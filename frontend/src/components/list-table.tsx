import type { ReactNode } from 'react';
import { TableScroll } from './table-scroll';

/** One column: its header and what a row shows in it. The first column names the row (a row header). */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface ListTableProps<T> {
  /** What the table lists ("API keys"): its accessible name, and the scroll region's. */
  label: string;
  testId: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowTestId?: (row: T) => string;
  /** The first page is on its way. */
  busy?: boolean;
}

/**
 * The shell of every list table: the header from the columns, one row per item with its first cell as the row's
 * header, inside the frame that scrolls a wide table in its card. Below 640 px the stylesheet stacks each row
 * into a block and every other cell shows its column's name (`data-label`), so nothing scrolls sideways.
 */
export const ListTable = <T,>({ label, testId, columns, rows, rowKey, rowTestId, busy }: ListTableProps<T>) => {
  const [first, ...rest] = columns;
  return (
    <TableScroll label={label}>
      <table className="table" aria-label={label} aria-busy={busy || undefined} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.header}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
              {first && (
                <th scope="row" className={first.className}>
                  {first.cell(row)}
                </th>
              )}
              {rest.map((column) => (
                <td key={column.header} data-label={column.header} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
};
