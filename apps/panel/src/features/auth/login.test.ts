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

  it('counts per IP and per account independently', async () => {
    const target = await createTestUser(t.ctx);
    const other = await createTestUser(t.ctx);
    const attacker = new TestBrowser(t.app, '10.2.0.1');
    for (let i = 0; i < 5; i++)
      await attacker.post('/auth/login', { user: target.user.username, password: 'wrong' });

    // The account is locked from every IP…
    const fromElsewhere = new TestBrowser(t.app, '10.2.0.2');
    const locked = await fromElsewhere.post('/auth/login', {
      user: target.user.email,
      password: target.password,
    });
    expect(locked.statusCode).toBe(429);
    // …and the attacker's IP is locked for every account…
    const otherFromAttacker = await attacker.post('/auth/login', {
      user: other.user.username,
      password: other.password,
    });
    expect(otherFromAttacker.statusCode).toBe(429);
    // …but another account from another IP is untouched.
    const unrelated = await fromElsewhere.post('/auth/login', {
      user: other.user.username,
      password: other.password,
    });
    expect(unrelated.statusCode).toBe(200);
  });

  it('counts failures against unknown accounts too', async () => {
    const browser = new TestBrowser(t.app, '10.3.0.1');
    for (let i = 0; i < 5; i++) await browser.post('/auth/login', { user: 'ghost', password: 'x' });
    expect(
      (await new TestBrowser(t.app, '10.3.0.2').post('/auth/login', { user: 'GHOST', password: 'x' }))
        .statusCode,
    ).toBe(429);
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
