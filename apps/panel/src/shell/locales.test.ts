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
