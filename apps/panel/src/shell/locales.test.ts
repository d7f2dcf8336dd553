import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeAllowList } from './locales';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const notFound = {
  errors: [
    {
      code: 'NotFoundHttpException',
      status: '404',
      detail: 'The requested resource could not be found on the server.',
    },
  ],
};

describe('GET /locales/{lng}/{ns}.json', () => {
  it('builds the allow-list from well-named files only', () => {
    expect([...localeAllowList(t.config.webDist)].sort()).toEqual([
      'en/auth',
      'en/translation',
      'pt-BR/auth',
    ]);
  });

  it('serves an allowed translation file as JSON, to guests too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/locales/en/auth.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ login: 'Login to Continue' });
    expect((await t.app.inject({ method: 'GET', url: '/locales/pt-BR/auth.json' })).json()).toEqual({
      login: 'Entrar',
    });
  });

  it.each([
    '/locales/en/unknown.json',
    '/locales/de/auth.json',
    '/locales/en/../x.json',
    '/locales/en/..%2f..%2findex.html',
    '/locales/en/%2e%2e.json',
    '/locales/EN_bad/auth.json',
    '/locales/en/Bad_NS.json',
    '/locales/en/notes.txt',
    '/locales/en/auth',
    '/locales/en/auth.json/extra',
  ])('answers 404 JSON for %s', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });
});

/** Pterodactyl's own client (i18next-multiload-backend-adapter) asks for every language and namespace at once. */
describe('GET /locales/locale.json?locale={lngs}&namespace={nss}', () => {
  it('answers one language and namespace, nested as {lng: {ns: …}}, from the same file', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/locales/locale.json?locale=en&namespace=auth',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ en: { auth: { login: 'Login to Continue' } } });
  });

  it.each([
    '/locales/locale.json?locale=en+pt-BR&namespace=auth+translation',
    '/locales/locale.json?locale=en%20pt-BR&namespace=auth%20translation',
  ])('answers several languages and namespaces at once (%s); a pair with no file is empty', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      en: { auth: { login: 'Login to Continue' }, translation: { hello: 'Hello' } },
      'pt-BR': { auth: { login: 'Entrar' }, translation: {} },
    });
  });

  it('lets the browser revalidate the answer with its ETag', async () => {
    const url = '/locales/locale.json?locale=en&namespace=auth&hash=abc';
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.headers['cache-control']).toBe('public, max-age=0');
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    '/locales/locale.json',
    '/locales/locale.json?locale=en',
    '/locales/locale.json?namespace=auth',
    '/locales/locale.json?locale=&namespace=auth',
    '/locales/locale.json?locale=../../x&namespace=auth',
    '/locales/locale.json?locale=en&namespace=../index',
    '/locales/locale.json?locale=en&namespace=auth.json',
    '/locales/locale.json?locale=en&namespace=Bad_NS',
    '/locales/locale.json?locale=EN_bad&namespace=auth',
    '/locales/locale.json?locale=en&locale=de&namespace=auth',
    `/locales/locale.json?locale=en&namespace=${Array.from({ length: 33 }, (_, i) => `ns${i}`).join('+')}`,
  ])('answers 404 JSON for %s', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
  });
});
