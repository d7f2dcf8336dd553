import { limits } from '@aerie/shared/limits';
import type { i18n as I18n } from 'i18next';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n, namespaces } from '@/lib/i18n';
import { startTestServer, type TestServer } from '@/testing/test-server';

let server: TestServer;

const serveTranslations = (word: string) => {
  for (const ns of namespaces)
    server.on(`GET /locales/en/${ns}.json`, () => ({ body: { greeting: `${word} ${ns}` } }));
};
/** Reads the loaded resource directly: the test files are not the app's typed keys. */
const greeting = (i18n: I18n, ns: string) => i18n.getResource('en', ns, 'greeting') as string | undefined;
const fetched = () => server.requests.map((request) => request.url).sort();

async function start(version = 'v1') {
  const { i18n, ready } = createI18n({
    loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json`,
    languages: ['en'],
    version,
  });
  await ready;
  return i18n;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe('translations', () => {
  it('fetches every namespace from /locales/{lng}/{ns}.json and caches it under pterodactyl_lng__<lng>-<ns>', async () => {
    serveTranslations('Hello');
    const i18n = await start();

    expect(greeting(i18n, 'auth')).toBe('Hello auth');
    expect(fetched()).toEqual(namespaces.map((ns) => `/locales/en/${ns}.json`).sort());
    const cached = JSON.parse(localStorage.getItem('pterodactyl_lng__en-auth') ?? '{}');
    expect(cached).toMatchObject({ greeting: 'Hello auth', i18nVersion: 'v1' });
    expect(Date.now() - cached.i18nStamp).toBeLessThan(5_000);
  });

  it('uses the cached copy for 7 days without asking the panel', async () => {
    serveTranslations('Hello');
    await start();
    server.reset();
    serveTranslations('Changed');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + limits.translationCacheMs - 60_000);
    const i18n = await start();

    expect(greeting(i18n, 'strings')).toBe('Hello strings');
    expect(server.requests).toHaveLength(0);
  });

  it('fetches again once the cached copy is older than 604800000 ms', async () => {
    serveTranslations('Hello');
    await start();
    server.reset();
    serveTranslations('Fresh');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 604_800_000 + 1_000);
    const i18n = await start();

    expect(greeting(i18n, 'strings')).toBe('Fresh strings');
    expect(server.requests).toHaveLength(namespaces.length);
  });

  it('fetches again when a new build changed the translations', async () => {
    serveTranslations('Hello');
    await start('v1');
    server.reset();
    serveTranslations('Rebuilt');
    const i18n = await start('v2');
    expect(greeting(i18n, 'dashboard')).toBe('Rebuilt dashboard');
  });

  it('gives up at once on a 4xx answer', async () => {
    serveTranslations('Hello');
    server.on('GET /locales/en/auth.json', () => ({ status: 404, body: {} }));
    const i18n = await start();
    expect(server.requests.filter((request) => request.url === '/locales/en/auth.json')).toHaveLength(1);
    expect(greeting(i18n, 'auth')).toBeUndefined();
    expect(localStorage.getItem('pterodactyl_lng__en-auth')).toBeNull();
  });

  it('retries a 5xx answer', async () => {
    serveTranslations('Hello');
    let calls = 0;
    server.on('GET /locales/en/auth.json', () =>
      ++calls === 1 ? { status: 503, body: {} } : { body: { greeting: 'Second try' } },
    );
    const i18n = await start();
    await vi.waitFor(() => expect(greeting(i18n, 'auth')).toBe('Second try'), { timeout: 3_000 });
    expect(calls).toBe(2);
  });

  it('treats a file that is not JSON as a failure', async () => {
    serveTranslations('Hello');
    server.on('GET /locales/en/account.json', () => ({
      raw: '<html>proxy error</html>',
      contentType: 'text/html',
    }));
    const i18n = await start();
    expect(greeting(i18n, 'account')).toBeUndefined();
    expect(localStorage.getItem('pterodactyl_lng__en-account')).toBeNull();
    expect(greeting(i18n, 'strings')).toBe('Hello strings');
  });

  it('falls back to English without a request for a language that has no files', async () => {
    serveTranslations('Hello');
    const { i18n, ready } = createI18n({
      language: 'de',
      loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json`,
      languages: ['en'],
      version: 'v1',
    });
    await ready;
    expect(greeting(i18n, 'strings')).toBe('Hello strings');
    expect(server.requests.every((request) => request.url.startsWith('/locales/en/'))).toBe(true);
  });
});
