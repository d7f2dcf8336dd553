import clsx from 'clsx';
import { useTranslation } from 'react-i18next';

/** Pages shown around the current one (spec §9): two before it, five after it. */
export const paginationWindow = { before: 2, after: 5 } as const;

/** The page numbers the control lists: current − 2 … current + 5, kept inside 1 … total. */
export function pageWindow(currentPage: number, totalPages: number): number[] {
  const first = Math.max(1, currentPage - paginationWindow.before);
  const last = Math.min(totalPages, currentPage + paginationWindow.after);
  const pages: number[] = [];
  for (let page = first; page <= last; page++) pages.push(page);
  return pages;
}

interface PaginationProps {
  currentPage: number;
  totalPages: number;
  onPageSelect: (page: number) => void;
  className?: string;
}

const blockClasses = (active = false) =>
  clsx(
    'inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-3 text-sm font-semibold transition-colors duration-150',
    active ? 'bg-brand-600 text-white' : 'bg-ink-800 text-ink-200 hover:bg-ink-700 hover:text-white',
  );

/** Page buttons with jumps to the first and last page when those are outside the window. Hidden for one page. */
export function Pagination({ currentPage, totalPages, onPageSelect, className }: PaginationProps) {
  const { t } = useTranslation();
  const pages = pageWindow(currentPage, totalPages);
  if (pages.length < 2) return null;
  const first = pages[0] ?? 1;
  const last = pages[pages.length - 1] ?? totalPages;
  return (
    <nav
      aria-label={t('pagination.label')}
      className={clsx('flex flex-wrap justify-center gap-1.5', className)}
    >
      {first > 1 && (
        <button type="button" className={blockClasses()} onClick={() => onPageSelect(1)}>
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            «
          </span>
          <span className="sr-only">{t('pagination.first')}</span>
        </button>
      )}
      {pages.map((page) => (
        <button
          key={page}
          type="button"
          aria-current={page === currentPage ? 'page' : undefined}
          aria-label={t('pagination.page', { page })}
          className={blockClasses(page === currentPage)}
          onClick={() => onPageSelect(page)}
        >
          {page}
        </button>
      ))}
      {last < totalPages && (
        <button type="button" className={blockClasses()} onClick={() => onPageSelect(totalPages)}>
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            »
          </span>
          <span className="sr-only">{t('pagination.last')}</span>
        </button>
      )}
    </nav>
  );
}
