import { throttleAddress } from '@aerie/panel/features/auth/password-recheck';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { limits } from '@aerie/shared/limits';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ATTEMPTS = limits.passwordRecheckAttempts;
let addressSequence = 0;
/** A fresh address per call, so tests never share a count by accident. */
const freshIp = () => `10.9.${Math.floor(addressSequence / 250)}.${(addressSequence++ % 250) + 1}`;

/** A signed-in user, and the same session used from a second address (a cookie copied elsewhere). */
async function signedIn() {
  const { user, password } = await createTestUser(t.ctx);
  const browser = new TestBrowser(t.app, freshIp());
  await browser.signIn(user.username, password);
  const elsewhere = new TestBrowser(t.app, freshIp());
  for (const [name, value] of browser.cookies) elsewhere.cookies.set(name, value);
  elsewhere.csrfToken = browser.csrfToken;
  return { user, password, browser, elsewhere };
}

type Browser = TestBrowser;
/** Each endpoint that re-checks the current password, as the SPA (or Pterodactyl 1.11) calls it. */
const endpoints: Record<string, (browser: Browser, password: string) => Promise<LightMyRequestResponse>> = {
  'PUT /api/client/account/email': (b, password) =>
    b.send('PUT', '/api/client/account/email', { email: `new${addressSequence++}@example.com`, password }),
  'PUT /api/client/account/password': (b, password) =>
    b.send('PUT', '/api/client/account/password', {
      current_password: password,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    }),
  'POST /api/client/account/two-factor/disable': (b, password) =>
    b.post('/api/client/account/two-factor/disable', { password }),
  'DELETE /api/client/account/two-factor': (b, password) =>
    b.send('DELETE', `/api/client/account/two-factor?password=${encodeURIComponent(password)}`),
};

const throttled = {
  errors: [{ code: 'TooManyRequestsHttpException', status: '429', detail: 'Too Many Attempts.' }],
};

function expectThrottled(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(throttled);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(limits.passwordRecheckWindowSeconds);
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
}

describe('password re-checks are throttled per account and address', () => {
  it.each(Object.entries(endpoints))(
    '%s: wrong passwords in a row end in 429, even the right one from there; elsewhere it still works',
    async (_name, call) => {
      const { user, password, browser, elsewhere } = await signedIn();
      await enableTwoFactor(t.ctx, user);
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        expect((await call(browser, `wrong guess ${attempt}`)).statusCode).toBe(400);
      }
      expectThrottled(await call(browser, 'one more guess'));
      // Locked means locked: the right password from that address is not even checked.
      expectThrottled(await call(browser, password));
      expect(await findUserById(t.db, user.id)).toMatchObject({ email: user.email, useTotp: true });

      // The owner, from another address, is not locked out of their own account.
      const fromElsewhere = await call(elsewhere, password);
      expect(fromElsewhere.statusCode).toBe(204);
    },
  );

  it('another account from the same address is unaffected', async () => {
    const first = await signedIn();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      await first.browser.send('PUT', '/api/client/account/email', {
        email: 'x@example.com',
        password: 'no',
      });
    }
    expectThrottled(
      await first.browser.send('PUT', '/api/client/account/email', {
        email: 'x@example.com',
        password: 'no',
      }),
    );

    const { user, password } = await createTestUser(t.ctx);
    const second = new TestBrowser(t.app, first.browser.ip);
    await second.signIn(user.username, password);
    const wrong = await second.send('PUT', '/api/client/account/email', {
      email: 'y@example.com',
      password: 'no',
    });
    expect(wrong.statusCode).toBe(400);
    const right = await second.send('PUT', '/api/client/account/email', { email: 'y@example.com', password });
    expect(right.statusCode).toBe(204);
    expect((await findUserById(t.db, user.id))?.email).toBe('y@example.com');
  });

  it('counts wrong passwords across the endpoints together', async () => {
    const { browser } = await signedIn();
    const calls = Object.values(endpoints);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const call = calls[attempt % calls.length] as (typeof calls)[number];
      expect((await call(browser, 'wrong')).statusCode).toBe(400);
    }
    expectThrottled(
      await (endpoints['PUT /api/client/account/password'] as (typeof calls)[number])(browser, 'x'),
    );
  });

  it('throttles an API key the same way (no session, no CSRF)', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'test key', allowedIps: [] });
    const ip = freshIp();
    const put = (body: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/client/account/email',
        remoteAddress: ip,
        headers: {
          authorization: `Bearer ${key.identifier}${secret}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        payload: JSON.stringify(body),
      });
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      expect((await put({ email: 'k@example.com', password: `guess ${attempt}` })).statusCode).toBe(400);
    }
    expectThrottled(await put({ email: 'k@example.com', password }));
  });

  it('POST /api/client/account/two-factor (enable) re-checks under the same throttle', async () => {
    const { browser, elsewhere } = await signedIn();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const response = await browser.post('/api/client/account/two-factor', {
        code: '123456',
        password: 'no',
      });
      expect(response.statusCode).toBe(400);
    }
    expectThrottled(await browser.post('/api/client/account/two-factor', { code: '123456', password: 'no' }));
    const other = await elsewhere.post('/api/client/account/two-factor', { code: '123456', password: 'no' });
    expect(other.statusCode).toBe(400);
  });
});

describe('PUT /api/client/account/email: whether an address is taken', () => {
  it('is only told after the right password, and each such answer counts toward the throttle', async () => {
    const { password, browser } = await signedIn();
    const taken = await createTestUser(t.ctx);
    // Without the password nothing is said about the address.
    const guess = await browser.send('PUT', '/api/client/account/email', {
      email: taken.user.email,
      password: 'wrong',
    });
    expect(guess.statusCode).toBe(400);
    expect(guess.json().errors[0].code).toBe('InvalidPasswordProvidedException');

    for (let probe = 1; probe < ATTEMPTS; probe++) {
      const response = await browser.send('PUT', '/api/client/account/email', {
        email: taken.user.email,
        password,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        {
          code: 'ValidationException',
          status: '422',
          detail: 'The email has already been taken.',
          meta: { source_field: 'email', rule: 'unique' },
        },
      ]);
    }
    expectThrottled(
      await browser.send('PUT', '/api/client/account/email', { email: 'free@example.org', password }),
    );
  });
});

describe('throttleAddress', () => {
  it('counts an IPv6 host by its /64 and IPv4 (mapped or not) by its address', () => {
    expect(throttleAddress('2001:db8:1:2:aaaa::1')).toBe(throttleAddress('2001:db8:1:2:bbbb::9'));
    expect(throttleAddress('2001:db8:1:2::1')).not.toBe(throttleAddress('2001:db8:1:3::1'));
    expect(throttleAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(throttleAddress('10.0.0.1')).not.toBe(throttleAddress('10.0.0.2'));
  });
});
