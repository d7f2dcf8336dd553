import type { i18n } from 'i18next';
import { type ReactNode, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { FullPageSpinner } from '@/components/ui/spinner';

/** Translations for every page; the first render waits until they are loaded. */
export function AppProvider({ i18n, children }: { i18n: i18n; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <Suspense fallback={<FullPageSpinner />}>{children}</Suspense>
    </I18nextProvider>
  );
}
