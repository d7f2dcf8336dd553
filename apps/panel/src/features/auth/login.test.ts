import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const failed = {
  errors: [
    {
      code: 'DisplayException',
      status: '400',
      detail: 'No account matching those credentials could be found.',
    },
  ],
};

describe('POST /auth/login', () => {
  it('signs in by username with a session cookie and answers the user', async () => {
    const { user, password } = await createTestUser(t.ctx, { username: 'Alice', email: 'alice@example.com' });
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/auth/login', { user: 'alice', password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        complete: true,
        intended: '/',
        user: {
          uuid: user.uuid,
          username: 'alice',
          email: 'alice@example.com',
          language: 'en',
          root_admin: false,
          admin_permissions: [],
          use_totp: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
          updated_at: expect.stringMatching(/\+00:00$/),
        },
      },
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/aerie_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax/);
    expect(setCookie).not.toMatch(/aerie_session=[^,]*Secure/);
    const account = await browser.get('/api/client/account');
    expect(account.statusCode).toBe(200);
    expect(account.json().attributes.username).toBe('alice');
  });

  it('signs in by email, whatever its case', async () => {
    const { password } = await createTestUser(t.ctx, { email: 'Bob@Example.com' });
    const response = await new TestBrowser(t.app).post('/auth/login', { user: 'BOB@example.COM', password });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.complete).toBe(true);
  });

  it('answers the same 400 for a wrong password and an unknown user, without a session', async () => {
    const { user } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app, '10.0.0.1');
    const wrong = await browser.post('/auth/login', { user: user.username, password: 'not the password' });
    const unknown = await browser.post('/auth/login', { user: 'nobody-here', password: 'whatever' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(failed);
    }
    expect(browser.cookies.has('aerie_session')).toBe(false);
  });

  it('refuses missing fields with one 422 entry per field', async () => {
    const response = await new TestBrowser(t.app, '10.0.0.2').post('/auth/login', {
      user: '',
      password: null,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The user field is required.',
        meta: { source_field: 'user', rule: 'required' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The password field is required.',
        meta: { source_field: 'password', rule: 'required' },
      },
    ]);
  });

  it('marks the cookie Secure behind a trusted proxy speaking HTTPS', async () => {
    const proxied = await buildTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const { password, user } = await createTestUser(proxied.ctx);
      const browser = new TestBrowser(proxied.app);
      await browser.open('/auth/login');
      const response = await browser.post(
        '/auth/login',
        { user: user.username, password },
        {
          headers: { 'x-forwarded-proto': 'https' },
        },
      );
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['set-cookie'])).toMatch(/aerie_session=[^,]*; Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('asks for the 2FA checkpoint instead of signing in when the user has 2FA', async () => {
    const { user, password } = await createTestUser(t.ctx);
    await enableTwoFactor(t.ctx, user);
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/auth/login', { user: user.username, password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: { complete: false, confirmation_token: expect.stringMatching(/^[A-Za-z0-9]{64}$/) },
    });
    // Not signed in yet.
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
  });
});

describe('login lockout', () => {
  const lockoutMessage = /^Too many login attempts\. Please try again in \d+ seconds\.$/;

  it('locks the sixth attempt out with 429 and the message, even with the right password', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app, '10.1.0.1');
    for (let i = 0; i < 5; i++) {
      expect((await browser.post('/auth/login', { user: user.username, password: 'wrong' })).statusCode).toBe(
        400,
      );
    }
    const sixth = await browser.post('/auth/login', { user: user.username, password });
    expect(sixth.statusCode).toBe(429);
    const [error] = sixth.json().errors;
    expect(error).toMatchObject({
      code: 'ValidationException',
      status: '429',
      meta: { source_field: 'email' },
    });
    expect(error.detail).toMatch(lockoutMessage);
    const seconds = Number(/in (\d+) seconds/.exec(error.detail)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(sixth.headers['retry-after']).toBe(String(seconds));
  });

  it('counts failures against unknown accounts too, by the name typed, whatever its case', async () => {
    const browser = new TestBrowser(t.app, '10.3.0.1');
    for (let i = 0; i < 5; i++) await browser.post('/auth/login', { user: 'ghost', password: 'x' });
    expect((await browser.post('/auth/login', { user: 'GHOST', password: 'x' })).statusCode).toBe(429);
    // Per account and address (sign-in-throttle.test.ts): the same name from elsewhere is answered as usual.
    expect(
      (await new TestBrowser(t.app, '10.3.0.2').post('/auth/login', { user: 'ghost', password: 'x' }))
        .statusCode,
    ).toBe(400);
  });
});

describe('CSRF on sign-in', () => {
  it('refuses a login without the token with 419', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app, '10.4.0.1');
    await browser.open('/auth/login');
    const response = await browser.post('/auth/login', { user: user.username, password }, { csrf: false });
    expect(response.statusCode).toBe(419);
    expect(response.json()).toEqual({
      errors: [{ code: 'HttpException', status: '419', detail: 'CSRF token mismatch.' }],
    });
  });

  it('refuses a wrong token, and a token without its cookie', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app, '10.4.0.2');
    await browser.open('/auth/login');
    const wrong = await browser.post(
      '/auth/login',
      { user: user.username, password },
      { csrf: 'forged-token' },
    );
    expect(wrong.statusCode).toBe(419);
    const stolen = browser.csrfToken as string;
    const elsewhere = new TestBrowser(t.app, '10.4.0.3');
    const noCookie = await elsewhere.post('/auth/login', { user: user.username, password }, { csrf: stolen });
    expect(noCookie.statusCode).toBe(419);
  });

  it('gives a fresh CSRF secret after signing in', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app, '10.4.0.4');
    await browser.open('/auth/login');
    const before = browser.cookies.get('aerie_csrf');
    await browser.signIn(user.username, password);
    expect(browser.cookies.get('aerie_csrf')).toBeDefined();
    expect(browser.cookies.get('aerie_csrf')).not.toBe(before);
  });
});

describe("Laravel's cookie-to-header CSRF pair", () => {
  it('answers GET /sanctum/csrf-cookie with 204 and a readable XSRF-TOKEN cookie', async () => {
    const browser = new TestBrowser(t.app, '10.4.1.1');
    const response = await browser.get('/sanctum/csrf-cookie');
    expect(response.statusCode).toBe(204);
    const setCookie = [response.headers['set-cookie']].flat().map(String);
    const xsrf = setCookie.find((line) => line.startsWith('XSRF-TOKEN='));
    expect(xsrf).toMatch(/; Path=\/; SameSite=Lax$/);
    expect(xsrf).not.toMatch(/HttpOnly/);
    expect(setCookie.find((line) => line.startsWith('aerie_csrf='))).toMatch(/HttpOnly; SameSite=Lax/);
  });

  it('signs in with X-XSRF-TOKEN echoing the cookie, as axios does, and refuses a wrong or stolen one', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const body = { user: user.username, password };
    const browser = new TestBrowser(t.app, '10.4.1.2');
    await browser.get('/sanctum/csrf-cookie');
    const token = browser.cookies.get('XSRF-TOKEN') as string;
    expect(token).toBeTruthy();

    const forged = await browser.post('/auth/login', body, {
      csrf: false,
      headers: { 'x-xsrf-token': `${token}x` },
    });
    expect(forged.statusCode).toBe(419);
    // The token without the secret cookie it was made from.
    const elsewhere = new TestBrowser(t.app, '10.4.1.3');
    const stolen = await elsewhere.post('/auth/login', body, {
      csrf: false,
      headers: { 'x-xsrf-token': token },
    });
    expect(stolen.statusCode).toBe(419);

    const signedIn = await browser.post('/auth/login', body, {
      csrf: false,
      headers: { 'x-xsrf-token': decodeURIComponent(token) },
    });
    expect(signedIn.statusCode).toBe(200);
    // Signing in drops both cookies; the next page sets a fresh pair that works for the signed-in session.
    expect(browser.cookies.has('XSRF-TOKEN')).toBe(false);
    await browser.open('/');
    const fresh = browser.cookies.get('XSRF-TOKEN') as string;
    expect(fresh).toBeTruthy();
    const logout = await browser.post('/auth/logout', undefined, {
      csrf: false,
      headers: { 'x-xsrf-token': decodeURIComponent(fresh) },
    });
    expect(logout.statusCode).toBe(204);
  });
});
