import type { Key, ReactNode } from "react";
import * as styles from "./Table.css";

/**
 * One column of a stacked table. `label` is the column's header and, on a phone where each row stacks into a card,
 * every cell's label (`data-label`). `kind`: `title` heads the stacked card; `number` is right-aligned; `amount` is
 * a right-aligned sum of money, set a little heavier.
 */
export type StackedColumn<Row> = {
  label: string;
  cell: (row: Row) => ReactNode;
  kind?: "title" | "number" | "amount";
  /** A class of the page's own for each cell of the column, after the kind's. */
  className?: string;
};

const HEADER_CLASS: Partial<Record<NonNullable<StackedColumn<unknown>["kind"]>, string>> = {
  number: styles.number,
  amount: styles.number,
};

const CELL_CLASS: Record<NonNullable<StackedColumn<unknown>["kind"]>, string> = {
  title: styles.cellTitle,
  number: styles.number,
  amount: `${styles.number} ${styles.cellAmount}`,
};

function cellClass<Row>(column: StackedColumn<Row>): string | undefined {
  const classes = [column.kind ? CELL_CLASS[column.kind] : undefined, column.className].filter(Boolean);
  return classes.length > 0 ? classes.join(" ") : undefined;
}

/**
 * A table that reads as a table on a wide screen and as one card per row on a phone (Table.css.ts, `stacked`). The
 * explicit ARIA roles keep it a table for screen readers when the stacking CSS changes its display.
 */
export function StackedTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
}: {
  columns: readonly StackedColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** A `<caption>` element, when the table has one. */
  caption?: ReactNode;
}) {
  return (
    <table role="table" className={`${styles.table} ${styles.stacked}`}>
      {caption}
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th
              key={column.label}
              role="columnheader"
              scope="col"
              className={column.kind ? HEADER_CLASS[column.kind] : undefined}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((row) => (
          <tr role="row" key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.label} role="cell" data-label={column.label} className={cellClass(column)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
