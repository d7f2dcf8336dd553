import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { type ReactNode, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { FullPageSpinner } from '@/components/ui/spinner';
import { getQueryClient } from '@/lib/query-client';

/** Translations for every page; the first render waits until they are loaded. */
export function AppProvider({ i18n, children }: { i18n: i18n; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <Suspense fallback={<FullPageSpinner />}>{children}</Suspense>
    </I18nextProvider>
  );
}

/**
 * The server-state cache. Only signed-in pages use it, so it is provided by their layout and the sign-in pages
 * don't download the query library.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
