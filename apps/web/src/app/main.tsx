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
// Dates and numbers in the page's language from the first paint (a small chunk, fetched beside the translations).
await prepareFormatLanguage(language);
const router = createAppRouter();
wireApiClient(apiClient, {
  navigate: (to, options) => router.navigate(to, options),
  currentPath: () => router.state.location.pathname,
});

const container = document.getElementById('app');
if (!container) throw new Error('The page has no #app element to render into.');
createRoot(container).render(
  <StrictMode>
    <AppProvider i18n={i18n}>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
