import { readCount } from '@aerie/panel/db/dialect';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

let ipSequence = 0;

/** A 2FA user who has passed the password step in a fresh browser. */
async function atCheckpoint() {
  const { user, password } = await createTestUser(t.ctx);
  const { secret, recoveryTokens } = await enableTwoFactor(t.ctx, user);
  return { user, password, secret, recoveryTokens, ...(await passwordStep(user.username, password)) };
}

async function passwordStep(username: string, password: string) {
  const browser = new TestBrowser(t.app, `10.20.0.${++ipSequence}`);
  const login = await browser.post('/auth/login', { user: username, password });
  expect(login.json().data.complete).toBe(false);
  return { browser, token: login.json().data.confirmation_token as string };
}

const codeFor = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(t.ctx.clock().getTime() / 1000) + offsetSeconds });

const errorOf = (detail: string) => ({ errors: [{ code: 'DisplayException', status: '400', detail }] });

describe('POST /auth/login/checkpoint', () => {
  it('signs in with a valid TOTP code and answers the user', async () => {
    const { user, secret, browser, token } = await atCheckpoint();
    const response = await browser.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: await codeFor(secret),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      complete: true,
      intended: '/',
      user: { uuid: user.uuid, use_totp: true },
    });
    expect((await browser.get('/api/client/account')).json().attributes.username).toBe(user.username);
  });

  it('accepts a code from a step ago (clock drift) but not one from ten minutes ago', async () => {
    const drift = await atCheckpoint();
    const ok = await drift.browser.post('/auth/login/checkpoint', {
      confirmation_token: drift.token,
      authentication_code: await codeFor(drift.secret, -30),
    });
    expect(ok.statusCode).toBe(200);

    const stale = await atCheckpoint();
    const refused = await stale.browser.post('/auth/login/checkpoint', {
      confirmation_token: stale.token,
      authentication_code: await codeFor(stale.secret, -600),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(errorOf('The two-factor authentication token was invalid.'));
  });

  it('refuses a wrong code and a wrong confirmation token', async () => {
    const { secret, browser, token } = await atCheckpoint();
    const wrongCode = await browser.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: '000000',
    });
    expect(wrongCode.json()).toEqual(errorOf('The two-factor authentication token was invalid.'));
    const wrongToken = await browser.post('/auth/login/checkpoint', {
      confirmation_token: 'x'.repeat(64),
      authentication_code: await codeFor(secret),
    });
    expect(wrongToken.statusCode).toBe(400);
    expect(wrongToken.json()).toEqual(errorOf('The two-factor authentication token was invalid.'));
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
  });

  it('binds the confirmation token to the browser session that signed in', async () => {
    const { secret, token } = await atCheckpoint();
    const otherBrowser = new TestBrowser(t.app, '10.21.0.1');
    const response = await otherBrowser.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: await codeFor(secret),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      errorOf('The authentication token provided has expired, please refresh the page and try again.'),
    );
  });

  it('refuses the step once its 5 minutes are over', async () => {
    const { secret, browser, token } = await atCheckpoint();
    t.advanceClock(5 * 60 * 1000 + 1000);
    try {
      const response = await browser.post('/auth/login/checkpoint', {
        confirmation_token: token,
        authentication_code: await codeFor(secret),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        errorOf('The authentication token provided has expired, please refresh the page and try again.'),
      );
    } finally {
      t.advanceClock(-(5 * 60 * 1000 + 1000));
    }
  });

  it('signs in with a recovery token exactly once', async () => {
    const { user, password, recoveryTokens, browser, token } = await atCheckpoint();
    const [first] = recoveryTokens;
    const response = await browser.post('/auth/login/checkpoint', {
      confirmation_token: token,
      recovery_token: first,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.complete).toBe(true);
    const left = await t.db
      .selectFrom('recovery_tokens')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(readCount(left.count)).toBe(9);

    // Through the password step again, the same recovery token is refused.
    const second = await passwordStep(user.username, password);
    const reused = await second.browser.post('/auth/login/checkpoint', {
      confirmation_token: second.token,
      recovery_token: first,
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual(errorOf('The recovery token provided is not valid.'));
  });

  it('refuses a bad body with 422 entries', async () => {
    const { browser } = await atCheckpoint();
    const response = await browser.post('/auth/login/checkpoint', { authentication_code: 'abcdef' });
    expect(response.statusCode).toBe(422);
    expect(
      response.json().errors.map((e: { meta: { source_field: string; rule: string } }) => e.meta),
    ).toEqual([
      { source_field: 'confirmation_token', rule: 'required' },
      { source_field: 'authentication_code', rule: 'numeric' },
    ]);
  });

  it('counts wrong codes toward the lockout', async () => {
    const { browser, token } = await atCheckpoint();
    for (let i = 0; i < 5; i++) {
      await browser.post('/auth/login/checkpoint', {
        confirmation_token: token,
        authentication_code: '111111',
      });
    }
    const locked = await browser.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: '111111',
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().errors[0].detail).toMatch(
      /^Too many login attempts\. Please try again in \d+ seconds\.$/,
    );
  });
});
