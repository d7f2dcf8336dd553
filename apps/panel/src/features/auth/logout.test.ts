import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn() {
  const { user, password } = await createTestUser(t.ctx);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return browser;
}

/** GET /auth/logout with the headers a browser would send. */
const logout = (browser: TestBrowser, headers: Record<string, string>) =>
  browser.request({ method: 'GET', url: '/auth/logout', headers });

async function expectSignedOut(browser: TestBrowser, response: Awaited<ReturnType<typeof logout>>) {
  const cookie = browser.cookies.get('aerie_session');
  expect(response.statusCode).toBe(302);
  expect(response.headers.location).toBe('/auth/login');
  expect(browser.cookies.has('aerie_session')).toBe(false);
  expect((await browser.get('/api/client/account')).statusCode).toBe(401);
  return cookie;
}

async function expectStillSignedIn(browser: TestBrowser, response: Awaited<ReturnType<typeof logout>>) {
  expect(response.statusCode).toBe(302);
  expect(response.headers.location).toBe('/');
  expect((await browser.get('/api/client/account')).statusCode).toBe(200);
}

describe('GET /auth/logout (the navigation link)', () => {
  it('ends the session and redirects to the login page when clicked on a panel page', async () => {
    const browser = await signedIn();
    const cookie = browser.cookies.get('aerie_session');
    const response = await logout(browser, {
      'sec-fetch-site': 'same-origin',
      referer: 'http://panel.test/server/abc123',
    });
    await expectSignedOut(browser, response);
    // The old cookie is dead on the server too, not just forgotten by this browser.
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/client/account',
      headers: { cookie: `aerie_session=${cookie}` },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('works when typed in the address bar (Sec-Fetch-Site: none)', async () => {
    const browser = await signedIn();
    await expectSignedOut(browser, await logout(browser, { 'sec-fetch-site': 'none' }));
  });

  it('works from an older browser without Fetch Metadata when the Origin or Referer is the panel', async () => {
    const byReferer = await signedIn();
    await expectSignedOut(byReferer, await logout(byReferer, { referer: 'http://panel.test/account' }));
    const byOrigin = await signedIn();
    await expectSignedOut(byOrigin, await logout(byOrigin, { origin: 'http://panel.test' }));
  });

  it.each([
    ['a cross-site request', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site request from a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
    [
      'a cross-site request that forged nothing else',
      { 'sec-fetch-site': 'cross-site', referer: 'http://panel.test/' },
    ],
    ['an older browser on another site (Referer)', { referer: 'http://evil.test/page' }],
    ['an older browser on a look-alike host', { referer: 'http://panel.test.evil.test/' }],
    ['an older browser on another port', { origin: 'http://panel.test:8443' }],
    ['an older browser from a sandboxed frame (Origin: null)', { origin: 'null' }],
    ['a request that says nothing of where it came from', {}],
  ])('refuses %s: redirect home, still signed in', async (_name, headers) => {
    const browser = await signedIn();
    await expectStillSignedIn(browser, await logout(browser, headers));
  });

  it('sends a guest to the login page either way', async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'cross-site' },
      {},
    ];
    for (const headers of cases) {
      const response = await logout(new TestBrowser(t.app), headers);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/auth/login');
    }
  });
});

describe('POST /auth/logout', () => {
  it('answers 204 and ends the session', async () => {
    const browser = await signedIn();
    const response = await browser.post('/auth/logout');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
  });

  it('needs the CSRF token (419) and keeps the session without it', async () => {
    const browser = await signedIn();
    const response = await browser.post('/auth/logout', undefined, { csrf: false });
    expect(response.statusCode).toBe(419);
    expect(response.json().errors[0].detail).toBe('CSRF token mismatch.');
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
  });

  it('answers 401 to a guest', async () => {
    const browser = new TestBrowser(t.app);
    await browser.open('/auth/login');
    const response = await browser.post('/auth/logout');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }],
    });
  });
});
