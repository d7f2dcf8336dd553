import '@/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { wireApiClient } from '@/app/api-wiring';
import { AppProvider } from '@/app/provider';
import { createAppRouter } from '@/app/router';
import { apiClient } from '@/lib/api-client';
import { prepareFormatLanguage } from '@/lib/format-language';
import { createI18n } from '@/lib/i18n';
import { readPageUser, readSettings } from '@/lib/page-globals';
import { pageLanguage } from '@/lib/page-language';

const language = pageLanguage(readPageUser(), navigator.languages ?? [], readSettings().locale);
const { i18n } = createI18n({ language });
const router = createAppRouter();
wireApiClient(apiClient, {
  navigate: (to, options) => router.navigate(to, options),
  currentPath: () => router.state.location.pathname,
});

const container = document.getElementById('app');
if (!container) throw new Error('The page has no #app element to render into.');
// Dates and numbers in the page's language from the first paint: its locale chunk is fetched beside the translations
// and the page renders once it is there (English has none). Not a top-level await: with one, the bundler could not
// keep the entry's shared modules in the entry chunk, and a module waiting on the entry would wait on this too.
void prepareFormatLanguage(language).finally(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProvider i18n={i18n}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  ),
);
