import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '@/lib/api-client';
import { prepareFormatLanguage } from '@/lib/format-language';
import { useUserStore } from '@/stores/user-store';
import { formRequests } from '@/testing/account-page';
import { pageUser, renderApp } from '@/testing/render-app';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  apiClient.configure({ baseUrl: server.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await server.close();
});
beforeEach(() => server.reset());
afterEach(async () => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
  await prepareFormatLanguage('en');
});

async function openPicker() {
  const view = renderApp('/account', { user: pageUser({ language: 'en' }) });
  const heading = await screen.findByRole('heading', { name: 'Language' });
  const panel = heading.parentElement as HTMLElement;
  return { ...view, panel, select: within(panel).getByLabelText('Language') };
}

describe('the account language', () => {
  it('lists every shipped language under its own name, the account’s own chosen', async () => {
    const { select } = await openPicker();
    expect(select).toHaveValue('en');
    const options = within(select).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'English',
      'Deutsch',
      'Français',
      'Español',
      'Português (Brasil)',
      'Polski',
      'Русский',
      '简体中文',
      'العربية',
    ]);
    expect(options.map((option) => option.getAttribute('lang'))).toEqual([
      'en',
      'de',
      'fr',
      'es',
      'pt',
      'pl',
      'ru',
      'zh',
      'ar',
    ]);
  });

  it('saves a choice and switches the page to it: Arabic lays it out right to left', async () => {
    server.on('PUT /api/client/account/language', () => ({ status: 204 }));
    const { user, select } = await openPicker();
    await user.selectOptions(select, 'ar');
    await waitFor(() => expect(document.documentElement.lang).toBe('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(formRequests(server).map((request) => [request.method, request.url, request.body])).toEqual([
      ['PUT', '/api/client/account/language', { language: 'ar' }],
    ]);
    expect(useUserStore.getState().user?.language).toBe('ar');
  });

  it('keeps the page as it was and says why when the panel refuses', async () => {
    server.on('PUT /api/client/account/language', () =>
      errorEnvelope(422, 'ValidationException', 'The selected language is invalid.'),
    );
    const { user, select, panel } = await openPicker();
    await user.selectOptions(select, 'de');
    expect(await within(panel).findByText('The selected language is invalid.')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    expect(useUserStore.getState().user?.language).toBe('en');
  });
});
