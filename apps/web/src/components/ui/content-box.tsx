import clsx from 'clsx';
import type { ReactNode } from 'react';

interface ContentBoxProps {
  title?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled panel on a page (settings groups, lists). */
export function ContentBox({ title, className, children }: ContentBoxProps) {
  return (
    <div className={clsx('relative rounded-xl border border-ink-800 bg-ink-900/70 shadow-sm', className)}>
      {title && (
        <h2 className="border-b border-ink-800 px-5 py-3 text-sm font-semibold uppercase tracking-wider text-ink-300">
          {title}
        </h2>
      )}
      <div className="p-5">{children}</div>
    </div>
  );
}
