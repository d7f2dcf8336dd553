import clsx from 'clsx';
import type { ReactNode } from 'react';
import { useMenu } from '@/hooks/use-menu';

export interface RowMenuItem<T extends string> {
  action: T;
  label: string;
  /** Drawn in red (delete). */
  danger?: boolean;
}

interface RowMenuProps<T extends string> {
  /** The button's accessible name, e.g. 'Actions for server.properties'. */
  label: string;
  items: RowMenuItem<T>[];
  onSelect: (action: T) => void;
  /** What the button shows (⋯, or a spinner while busy). */
  children: ReactNode;
  buttonClassName?: string;
  /** Disables the button and marks it busy (a download link or a lock change under way). */
  busy?: boolean;
}

/** The ⋯ menu of a list row (files, backups): a WAI-ARIA menu button (hooks/use-menu.ts). */
export function RowMenu<T extends string>({
  label,
  items,
  onSelect,
  children,
  buttonClassName,
  busy = false,
}: RowMenuProps<T>) {
  const { open, root, triggerProps, menuProps, itemProps } = useMenu(items.length);
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-label={label}
        aria-busy={busy || undefined}
        disabled={busy}
        className={buttonClassName}
        {...triggerProps}
      >
        {children}
      </button>
      {open && (
        <div
          {...menuProps}
          className="absolute inset-e-0 z-20 mt-1 w-40 rounded-lg border border-ink-700 bg-ink-850 py-1 shadow-xl"
        >
          {items.map((item, index) => (
            <button
              key={item.action}
              type="button"
              {...itemProps(index, () => onSelect(item.action))}
              className={clsx(
                'block w-full px-3 py-1.5 text-start text-sm focus:outline-none',
                item.danger
                  ? 'text-red-400 hover:bg-red-500/10 focus:bg-red-500/10'
                  : 'text-ink-200 hover:bg-ink-700 focus:bg-ink-700',
              )}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
