import clsx from 'clsx';
import type { ReactNode } from 'react';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { useDocumentTitle } from '@/hooks/use-document-title';

interface PageContentBlockProps {
  /** Tab title and, unless `hideHeading`, the page heading. */
  title: string;
  /** The whole tab title, as given, instead of '<title> | <product name>'. */
  documentTitle?: string;
  /** Shows the flashes added under this key above the content. */
  showFlashKey?: string;
  hideHeading?: boolean;
  /** Extra content right of the heading (toggles, actions). */
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/** The frame of every signed-in page: a centred column that fades in, with its heading and flashes. */
export function PageContentBlock({
  title,
  documentTitle,
  showFlashKey,
  hideHeading,
  actions,
  className,
  children,
}: PageContentBlockProps) {
  useDocumentTitle(documentTitle ?? title, { exact: documentTitle !== undefined });
  return (
    <section
      className={clsx('mx-auto w-full max-w-6xl px-4 py-6 animate-fade-in sm:px-6 lg:py-10', className)}
    >
      {!hideHeading && (
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-2xl font-semibold tracking-tight text-ink-50">{title}</h1>
          {actions}
        </div>
      )}
      {showFlashKey !== undefined && <FlashMessageRender byKey={showFlashKey} className="mb-4" />}
      {children}
    </section>
  );
}
