import clsx from 'clsx';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';

export interface SubNavigationItem {
  to: string;
  label: string;
  /** Active only on this exact path (for index pages). */
  end?: boolean;
}

/** A secondary row of links under the navigation bar (e.g. the account area's Settings / API Credentials). */
export function SubNavigation({
  items,
  label,
  extra,
}: {
  items: SubNavigationItem[];
  label: string;
  /** Shown after the links (e.g. the server area's admin link). */
  extra?: ReactNode;
}) {
  return (
    <div className="border-b border-ink-800/80 bg-ink-900/40">
      <nav aria-label={label} className="mx-auto flex w-full max-w-6xl gap-1 overflow-x-auto px-4 sm:px-6">
        {items.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.end}
            className={({ isActive }) =>
              clsx(
                '-mb-px whitespace-nowrap border-b-2 px-3 py-3 text-sm font-medium transition-colors duration-150',
                isActive
                  ? 'border-brand-400 text-white'
                  : 'border-transparent text-ink-400 hover:border-ink-600 hover:text-ink-100',
              )
            }
          >
            {item.label}
          </NavLink>
        ))}
        {extra}
      </nav>
    </div>
  );
}
