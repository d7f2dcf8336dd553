import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { buildTestApp, type TestApp } from '../../../test/build-test-app';
import { createTestUser } from '../../../test/factories';

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

describe('GET /auth/logout (the navigation link)', () => {
  it('ends the session and redirects to the login page', async () => {
    const browser = await signedIn();
    const cookie = browser.cookies.get('aerie_session');
    const response = await browser.request({ method: 'GET', url: '/auth/logout' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/login');
    expect(browser.cookies.has('aerie_session')).toBe(false);
    // The old cookie is dead on the server too, not just forgotten by this browser.
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/client/account',
      headers: { cookie: `aerie_session=${cookie}` },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('refuses a cross-site trigger: redirect home, still signed in', async () => {
    const browser = await signedIn();
    const response = await browser.request({
      method: 'GET',
      url: '/auth/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
  });

  it('sends a guest to the login page', async () => {
    const response = await new TestBrowser(t.app).request({ method: 'GET', url: '/auth/logout' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/login');
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
