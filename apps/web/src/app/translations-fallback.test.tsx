import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { createI18n, namespaces } from '@/lib/i18n';
import { translationRetry } from '@/lib/retrying-http-backend';
import { testSettings } from '@/testing/render-app';
import { startTestServer, type TestServer } from '@/testing/test-server';

/**
 * The sign-in page with the app's real translation loading (spec §7 notes): whatever the panel answers for a
 * namespace, the page shows words, never keys such as `login.title`, and never stays blank.
 */
let server: TestServer;
const savedRetry = { ...translationRetry };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  // Every other namespace loads as the panel serves it.
  for (const ns of namespaces) server.on(`GET /locales/en/${ns}.json`, () => ({ status: 404, body: {} }));
});
afterEach(() => Object.assign(translationRetry, savedRetry));

function openLoginPage() {
  window.SiteConfiguration = testSettings;
  const { i18n } = createI18n({
    loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json`,
    languages: ['en'],
    version: `v-${Math.random()}`,
  });
  render(
    <AppProvider i18n={i18n}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/auth/login'] })} />
    </AppProvider>,
  );
  return i18n;
}

/** Text that looks like a translation key: `login.title`, `strings:copy.hint`. */
const bareKeys = () =>
  (document.body.textContent ?? '').match(/\b[a-z_]+(?::[a-z_]+)?\.[a-z_]+(?:\.[a-z_]+)*\b/g) ?? [];

async function expectWords() {
  expect(
    await screen.findByRole('heading', { name: 'Login to Continue' }, { timeout: 10_000 }),
  ).toBeVisible();
  expect(screen.getByLabelText('Username or Email')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Forgot password?' })).toBeInTheDocument();
  expect(bareKeys()).toEqual([]);
}

describe('translations the panel cannot give', () => {
  it('shows the bundled English words when every namespace answers 404', async () => {
    openLoginPage();
    await expectWords();
  });

  it('shows them when a namespace is not JSON', async () => {
    server.on('GET /locales/en/auth.json', () => ({
      raw: '<html>proxy error</html>',
      contentType: 'text/html',
    }));
    server.on('GET /locales/en/strings.json', () => ({
      raw: '{"broken": ',
      contentType: 'application/json',
    }));
    openLoginPage();
    await expectWords();
  });

  it('shows them once the retries of a lasting 5xx are spent, instead of a blank page', async () => {
    translationRetry.firstDelayMs = 5;
    for (const ns of namespaces) server.on(`GET /locales/en/${ns}.json`, () => ({ status: 503, body: {} }));
    openLoginPage();
    await expectWords();
    expect(server.requests.filter((r) => r.url === '/locales/en/auth.json')).toHaveLength(
      translationRetry.attempts + 1,
    );
  });

  it('does not keep the bundled words in the cache: the next page load asks the panel again', async () => {
    openLoginPage();
    await expectWords();
    expect(localStorage.getItem('pterodactyl_lng__en-auth')).toBeNull();
  });
});
