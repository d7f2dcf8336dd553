import type { ReactNode } from 'react';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { useDocumentTitle } from '@/hooks/use-document-title';

interface AdminPageProps {
  /** Heading and tab title ('<title> | <product name>'). */
  title: string;
  /** A line under the heading. */
  description?: string;
  /** Buttons right of the heading. */
  actions?: ReactNode;
  /** Shows the flashes added under this key above the content. */
  flashKey?: string;
  children?: ReactNode;
}

/** The frame of an admin page, inside the admin layout's column (the client area's PageContentBlock, narrower). */
export function AdminPage({ title, description, actions, flashKey, children }: AdminPageProps) {
  useDocumentTitle(title);
  return (
    <section className="animate-fade-in">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-ink-50">{title}</h1>
          {description && <p className="mt-1 text-sm text-ink-400">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {flashKey !== undefined && <FlashMessageRender byKey={flashKey} className="mb-4" />}
      {children}
    </section>
  );
}
