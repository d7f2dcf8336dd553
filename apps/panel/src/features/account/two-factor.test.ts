import { keyedHash } from '@aerie/panel/crypto/tokens';
import { readCount } from '@aerie/panel/db/dialect';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
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

async function signedIn() {
  const { user, password } = await createTestUser(t.ctx);
  const browser = new TestBrowser(t.app, `10.30.0.${++ipSequence}`);
  await browser.signIn(user.username, password);
  return { user, password, browser };
}

const codeFor = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(t.ctx.clock().getTime() / 1000) + offsetSeconds });

const setup = async (browser: TestBrowser) => {
  const response = await browser.get('/api/client/account/two-factor');
  expect(response.statusCode).toBe(200);
  return response.json().data as { image_url_data: string; secret: string };
};

const recoveryTokenCount = async (userId: number) =>
  readCount(
    (
      await t.db
        .selectFrom('recovery_tokens')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.count,
  );

const badRequest = (detail: string) => ({
  errors: [{ code: 'BadRequestHttpException', status: '400', detail }],
});
const tokenInvalid = {
  errors: [
    {
      code: 'TwoFactorAuthenticationTokenInvalid',
      status: '400',
      detail: 'The provided two-factor authentication token was not valid.',
    },
  ],
};

describe('GET /api/client/account/two-factor', () => {
  it('stores a new sealed 32-character secret without enabling 2FA, and answers the otpauth URI', async () => {
    const { user, browser } = await signedIn();
    const { image_url_data, secret } = await setup(browser);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(image_url_data).toBe(
      `otpauth://totp/Aerie:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Aerie`,
    );
    const stored = await findUserById(t.db, user.id);
    expect(stored?.useTotp).toBe(false);
    expect(stored?.totpSecret).toMatch(/^v1\./);
    expect(stored?.totpSecret).not.toContain(secret);
    expect(t.ctx.secretBox.open(stored?.totpSecret as string)).toBe(secret);
    // Asking again replaces the unconfirmed secret.
    expect((await setup(browser)).secret).not.toBe(secret);
  });

  it('answers 400 BadRequestHttpException once 2FA is enabled', async () => {
    const { user, browser } = await signedIn();
    await enableTwoFactor(t.ctx, user);
    const response = await browser.get('/api/client/account/two-factor');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      badRequest('Two-factor authentication is already enabled on this account.'),
    );
  });

  it('drops the whitespace of the product name in the URI', async () => {
    const named = await buildTestApp({ env: { APP_NAME: 'My Game Panel' } });
    try {
      const { user, password } = await createTestUser(named.ctx);
      const browser = new TestBrowser(named.app);
      await browser.signIn(user.username, password);
      const { image_url_data, secret } = (await browser.get('/api/client/account/two-factor')).json().data;
      expect(image_url_data).toBe(
        `otpauth://totp/MyGamePanel:${encodeURIComponent(user.email)}?secret=${secret}&issuer=MyGamePanel`,
      );
    } finally {
      await named.close();
    }
  });
});

describe('POST /api/client/account/two-factor', () => {
  it('requires the code, then the password, and a code of exactly 6 characters', async () => {
    const { browser } = await signedIn();
    await setup(browser);
    const empty = await browser.post('/api/client/account/two-factor', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      errors: [
        {
          code: 'ValidationException',
          status: '422',
          detail: 'The code field is required.',
          meta: { source_field: 'code', rule: 'required' },
        },
        {
          code: 'ValidationException',
          status: '422',
          detail: 'The password field is required.',
          meta: { source_field: 'password', rule: 'required' },
        },
      ],
    });
    const short = await browser.post('/api/client/account/two-factor', { code: '12345', password: 'x' });
    expect(short.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The code must be 6 characters.',
        meta: { source_field: 'code', rule: 'size' },
      },
    ]);
  });

  it('refuses a wrong password (400) and a wrong code (400), leaving 2FA off', async () => {
    const { user, password, browser } = await signedIn();
    const { secret } = await setup(browser);
    const wrongPassword = await browser.post('/api/client/account/two-factor', {
      code: await codeFor(secret),
      password: 'not my password',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual(badRequest('The password provided was not valid.'));
    const wrongCode = await browser.post('/api/client/account/two-factor', {
      code: (await codeFor(secret)) === '000000' ? '111111' : '000000',
      password,
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toEqual(tokenInvalid);
    expect((await findUserById(t.db, user.id))?.useTotp).toBe(false);
    expect(await recoveryTokenCount(user.id)).toBe(0);
  });

  it('enables 2FA with a current code and answers 10 recovery tokens, stored as hashes', async () => {
    const { user, password, browser } = await signedIn();
    const { secret } = await setup(browser);
    const before = t.ctx.clock().getTime();
    const response = await browser.post('/api/client/account/two-factor', {
      code: await codeFor(secret),
      password,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.object).toBe('recovery_tokens');
    expect(Object.keys(body.attributes)).toEqual(['tokens']);
    const tokens = body.attributes.tokens as string[];
    expect(tokens).toHaveLength(10);
    expect(new Set(tokens).size).toBe(10);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9]{10}$/);

    const stored = await findUserById(t.db, user.id);
    expect(stored?.useTotp).toBe(true);
    expect(stored?.totpAuthenticatedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const rows = await t.db
      .selectFrom('recovery_tokens')
      .select('token')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((row) => row.token).sort()).toEqual(
      tokens.map((token) => keyedHash(t.ctx.appKey, token)).sort(),
    );
    for (const row of rows) expect(tokens).not.toContain(row.token);
  });

  it('refuses the same code twice: a replay inside its window is not accepted', async () => {
    const { user, password, browser } = await signedIn();
    const { secret } = await setup(browser);
    const code = await codeFor(secret);
    expect((await browser.post('/api/client/account/two-factor', { code, password })).statusCode).toBe(200);
    const firstTokens = await t.db
      .selectFrom('recovery_tokens')
      .select('token')
      .where('user_id', '=', user.id)
      .execute();

    const replay = await browser.post('/api/client/account/two-factor', { code, password });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual(tokenInvalid);
    // An older code of the window (a step back) counts as a replay too.
    const older = await browser.post('/api/client/account/two-factor', {
      code: await codeFor(secret, -30),
      password,
    });
    expect(older.statusCode).toBe(400);
    const unchanged = await t.db
      .selectFrom('recovery_tokens')
      .select('token')
      .where('user_id', '=', user.id)
      .execute();
    expect(unchanged).toEqual(firstTokens);

    // The next time step gives a code that works, and confirming again replaces the recovery tokens.
    t.advanceClock(30_000);
    try {
      const next = await browser.post('/api/client/account/two-factor', {
        code: await codeFor(secret),
        password,
      });
      expect(next.statusCode).toBe(200);
      const renewed = await t.db
        .selectFrom('recovery_tokens')
        .select('token')
        .where('user_id', '=', user.id)
        .execute();
      expect(renewed).toHaveLength(10);
      expect(renewed.map((row) => row.token)).not.toContain(firstTokens[0]?.token);
    } finally {
      t.advanceClock(-30_000);
    }
  });

  it('refuses a code when no setup was started', async () => {
    const { password, browser } = await signedIn();
    const response = await browser.post('/api/client/account/two-factor', { code: '123456', password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(tokenInvalid);
  });
});

describe('disabling 2FA', () => {
  const disableByDelete = (browser: TestBrowser, password: string) =>
    browser.send('DELETE', `/api/client/account/two-factor?password=${encodeURIComponent(password)}`);
  const disableByPost = (browser: TestBrowser, password?: string) =>
    browser.post('/api/client/account/two-factor/disable', password === undefined ? {} : { password });

  for (const [name, disable] of [
    ['DELETE …/two-factor?password=', disableByDelete],
    ['POST …/two-factor/disable', disableByPost],
  ] as const) {
    it(`${name}: a wrong password is a 400 and changes nothing; the right one turns 2FA off (204)`, async () => {
      const { user, password, browser } = await signedIn();
      await enableTwoFactor(t.ctx, user);
      const wrong = await disable(browser, 'wrong password');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual(badRequest('The password provided was not valid.'));
      expect((await findUserById(t.db, user.id))?.useTotp).toBe(true);
      expect(await recoveryTokenCount(user.id)).toBe(10);

      const response = await disable(browser, password);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const stored = await findUserById(t.db, user.id);
      expect(stored).toMatchObject({ useTotp: false, totpSecret: null });
      expect(stored?.totpAuthenticatedAt).not.toBeNull();
      expect(await recoveryTokenCount(user.id)).toBe(0);
    });
  }

  it('answers 204 when 2FA was not enabled, and 400 without a password', async () => {
    const { password, browser } = await signedIn();
    expect((await disableByPost(browser, password)).statusCode).toBe(204);
    expect((await disableByDelete(browser, password)).statusCode).toBe(204);
    const missing = await disableByPost(browser);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(badRequest('The password provided was not valid.'));
  });

  it('needs the CSRF token like every mutating session request', async () => {
    const { password, browser } = await signedIn();
    const response = await browser.send(
      'DELETE',
      `/api/client/account/two-factor?password=${encodeURIComponent(password)}`,
      undefined,
      { csrf: false },
    );
    expect(response.statusCode).toBe(419);
  });
});

describe('the sign-in checkpoint with the 2FA enabled here', () => {
  async function enabledThroughTheApi() {
    const { user, password, browser } = await signedIn();
    const { secret } = await setup(browser);
    const code = await codeFor(secret);
    const enabled = await browser.post('/api/client/account/two-factor', { code, password });
    return { user, password, secret, tokens: enabled.json().attributes.tokens as string[], usedCode: code };
  }

  async function atCheckpoint(username: string, password: string) {
    const browser = new TestBrowser(t.app, `10.31.0.${++ipSequence}`);
    const login = await browser.post('/auth/login', { user: username, password });
    expect(login.json().data.complete).toBe(false);
    return { browser, token: login.json().data.confirmation_token as string };
  }

  it('refuses the code that enabled 2FA, and a code used to sign in, when replayed', async () => {
    const { user, password, secret, usedCode } = await enabledThroughTheApi();
    const first = await atCheckpoint(user.username, password);
    const replayOfEnable = await first.browser.post('/auth/login/checkpoint', {
      confirmation_token: first.token,
      authentication_code: usedCode,
    });
    expect(replayOfEnable.statusCode).toBe(400);
    expect(replayOfEnable.json().errors[0].detail).toBe('The two-factor authentication token was invalid.');

    t.advanceClock(30_000);
    try {
      const fresh = await codeFor(secret);
      const ok = await first.browser.post('/auth/login/checkpoint', {
        confirmation_token: first.token,
        authentication_code: fresh,
      });
      expect(ok.statusCode).toBe(200);
      const second = await atCheckpoint(user.username, password);
      const replay = await second.browser.post('/auth/login/checkpoint', {
        confirmation_token: second.token,
        authentication_code: fresh,
      });
      expect(replay.statusCode).toBe(400);
      expect(replay.json().errors[0].detail).toBe('The two-factor authentication token was invalid.');
    } finally {
      t.advanceClock(-30_000);
    }
  });

  it('accepts each recovery token once', async () => {
    const { user, password, tokens } = await enabledThroughTheApi();
    const first = await atCheckpoint(user.username, password);
    const ok = await first.browser.post('/auth/login/checkpoint', {
      confirmation_token: first.token,
      recovery_token: tokens[3],
    });
    expect(ok.statusCode).toBe(200);
    expect(await recoveryTokenCount(user.id)).toBe(9);
    const second = await atCheckpoint(user.username, password);
    const again = await second.browser.post('/auth/login/checkpoint', {
      confirmation_token: second.token,
      recovery_token: tokens[3],
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0].detail).toBe('The recovery token provided is not valid.');
  });
});
