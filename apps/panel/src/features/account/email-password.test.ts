import { verifyPassword } from '@aerie/panel/features/auth/password-hash';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
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
  return { user, password, browser };
}

const invalidPassword = {
  errors: [
    {
      code: 'InvalidPasswordProvidedException',
      status: '400',
      detail: 'The password provided was invalid for this account.',
    },
  ],
};

const validationError = (source_field: string, rule: string, detail: string) => ({
  code: 'ValidationException',
  status: '422',
  detail,
  meta: { source_field, rule },
});

describe('PUT /api/client/account/email', () => {
  it('changes the email with the right password (204), stored lower-cased', async () => {
    const { user, password, browser } = await signedIn();
    const response = await browser.send('PUT', '/api/client/account/email', {
      email: '  New.Address@Example.com ',
      password,
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await browser.get('/api/client/account')).json().attributes.email).toBe(
      'new.address@example.com',
    );
    expect((await findUserById(t.db, user.id))?.email).toBe('new.address@example.com');
  });

  it('checks the password before the email: a wrong or missing one is a 400 even with a bad email', async () => {
    const { user, browser } = await signedIn();
    for (const body of [
      { email: 'other@example.com', password: 'wrong password' },
      { email: 'not an email', password: 'wrong password' },
      { email: 'other@example.com' },
      { email: 'other@example.com', password: '' },
    ]) {
      const response = await browser.send('PUT', '/api/client/account/email', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPassword);
    }
    expect((await findUserById(t.db, user.id))?.email).toBe(user.email);
  });

  it('validates the email: required, email, between 1 and 191, unique', async () => {
    const { user, password, browser } = await signedIn();
    const taken = await createTestUser(t.ctx);
    const cases: [unknown, ReturnType<typeof validationError>[]][] = [
      ['', [validationError('email', 'required', 'The email field is required.')]],
      ['invalid', [validationError('email', 'email', 'The email must be a valid email address.')]],
      [
        `${'a'.repeat(180)}@example.com`,
        [validationError('email', 'between', 'The email must be between 1 and 191 characters.')],
      ],
      [
        taken.user.email.toUpperCase(),
        [validationError('email', 'unique', 'The email has already been taken.')],
      ],
    ];
    for (const [email, errors] of cases) {
      const response = await browser.send('PUT', '/api/client/account/email', { email, password });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ errors });
    }
    expect((await findUserById(t.db, user.id))?.email).toBe(user.email);
  });

  it('accepts the address the user already has', async () => {
    const { user, password, browser } = await signedIn();
    const response = await browser.send('PUT', '/api/client/account/email', { email: user.email, password });
    expect(response.statusCode).toBe(204);
  });

  it('refuses a session request without the CSRF token (419) and guests (401)', async () => {
    const { password, browser } = await signedIn();
    const noToken = await browser.send(
      'PUT',
      '/api/client/account/email',
      { email: 'x@example.com', password },
      { csrf: false },
    );
    expect(noToken.statusCode).toBe(419);
    expect(noToken.json()).toEqual({
      errors: [{ code: 'HttpException', status: '419', detail: 'CSRF token mismatch.' }],
    });
    const guest = new TestBrowser(t.app);
    const response = await guest.send('PUT', '/api/client/account/email', {
      email: 'x@example.com',
      password,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('PUT /api/client/account/password', () => {
  const change = (browser: TestBrowser, body: Record<string, unknown>) =>
    browser.send('PUT', '/api/client/account/password', body);

  it('changes the password (204) and signs out every session, this one included', async () => {
    const { user, password, browser } = await signedIn();
    const otherDevice = new TestBrowser(t.app, '10.9.9.9');
    await otherDevice.signIn(user.username, password);
    expect((await otherDevice.get('/api/client/account')).statusCode).toBe(200);

    const response = await change(browser, {
      current_password: password,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(response.statusCode).toBe(204);
    // The answer clears this browser's session cookie: it is sent to /auth/login next.
    expect(browser.cookies.has('aerie_session')).toBe(false);
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
    const signedOut = await otherDevice.get('/api/client/account');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().errors[0].detail).toBe('Unauthenticated.');

    const stored = await findUserById(t.db, user.id);
    expect(await verifyPassword(stored?.passwordHash ?? null, 'a brand new password')).toBe(true);
    expect(await verifyPassword(stored?.passwordHash ?? null, password)).toBe(false);
    await new TestBrowser(t.app).signIn(user.username, 'a brand new password');
  });

  it('checks the current password first: wrong or missing is a 400 and nothing changes', async () => {
    const { user, password, browser } = await signedIn();
    for (const body of [
      { current_password: 'nope', password: 'new password 1', password_confirmation: 'new password 1' },
      { password: 'x' },
    ]) {
      const response = await change(browser, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPassword);
    }
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
    const stored = await findUserById(t.db, user.id);
    expect(await verifyPassword(stored?.passwordHash ?? null, password)).toBe(true);
  });

  it('validates the new password: required, confirmed, min:8 with the exact meta', async () => {
    const { password, browser } = await signedIn();
    const missing = await change(browser, { current_password: password });
    expect(missing.json()).toEqual({
      errors: [validationError('password', 'required', 'The password field is required.')],
    });
    const short = await change(browser, {
      current_password: password,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toEqual({
      errors: [validationError('password', 'min', 'The password must be at least 8 characters.')],
    });
    const mismatch = await change(browser, {
      current_password: password,
      password: 'long enough 1',
      password_confirmation: 'long enough 2',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors).toEqual([
      validationError('password', 'confirmed', 'The password confirmation does not match.'),
    ]);
    const both = await change(browser, { current_password: password, password: 'short' });
    expect(both.json().errors.map((e: { meta: { rule: string } }) => e.meta.rule)).toEqual([
      'confirmed',
      'min',
    ]);
    // Still signed in: nothing was changed.
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
  });

  it('keeps spaces around passwords', async () => {
    const { user, password, browser } = await signedIn();
    const response = await change(browser, {
      current_password: password,
      password: '  spaced out  ',
      password_confirmation: '  spaced out  ',
    });
    expect(response.statusCode).toBe(204);
    const stored = await findUserById(t.db, user.id);
    expect(await verifyPassword(stored?.passwordHash ?? null, '  spaced out  ')).toBe(true);
  });
});
