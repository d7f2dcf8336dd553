import clsx from 'clsx';
import type { ReactNode } from 'react';

export interface AdminColumn<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface AdminTableProps<T> {
  columns: AdminColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  caption?: string;
}

/** A plain list table of the admin area: a header row, one row per item, and its empty text. */
export function AdminTable<T>({ columns, rows, rowKey, empty, caption }: AdminTableProps<T>) {
  if (rows.length === 0) return <p className="py-8 text-center text-sm text-ink-400">{empty}</p>;
  return (
    <div className="relative overflow-x-auto rounded-xl border border-ink-800 bg-ink-900/70">
      <table className="w-full text-start text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="border-b border-ink-800 text-xs uppercase tracking-wider text-ink-400">
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={clsx('px-4 py-3 font-semibold', column.className)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-800">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="hover:bg-ink-800/40">
              {columns.map((column) => (
                <td key={column.key} className={clsx('px-4 py-3 text-ink-200', column.className)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
