import type { ReactNode } from 'react';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { LogoMark } from '@/components/ui/icons';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { readSettings } from '@/lib/page-globals';

/** The card every sign-in page sits in: the product mark, the page title, flashes, then the form. */
export function AuthFormContainer({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="w-full max-w-md animate-fade-in">
      <div className="mb-8 flex flex-col items-center text-center">
        <LogoMark className="size-12" />
        <p className="mt-3 text-sm font-semibold uppercase tracking-[0.2em] text-ink-400">
          {readSettings().name}
        </p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-white sm:text-3xl">{title}</h1>
      </div>
      <FlashMessageRender className="mb-4" />
      <div className="rounded-2xl border border-ink-800 bg-ink-900/80 p-6 shadow-2xl shadow-black/40 backdrop-blur sm:p-8">
        {children}
      </div>
    </div>
  );
}
