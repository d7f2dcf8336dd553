import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import { SETTING_SSO_REQUIRED } from '@aerie/panel/features/panel-settings/panel-settings';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { SoftwareAuthenticator } from '@aerie/panel/test/software-authenticator';
import { accountErrorMessages } from '@aerie/shared/account/account-wire';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import { passkeyLimits, passkeyMessages } from '@aerie/shared/passkeys/passkeys-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Passkeys through the real routes, answered by a software authenticator for the panel's origin. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ORIGIN = 'http://panel.test';
let ipSequence = 0;
const freshBrowser = () =>
  new TestBrowser(t.app, `10.30.${Math.floor(++ipSequence / 250)}.${ipSequence % 250}`);

async function signedIn(overrides: { rootAdmin?: boolean } = {}) {
  const { user, password } = await createTestUser(t.ctx, overrides);
  const browser = freshBrowser();
  await browser.signIn(user.username, password);
  return { user, password, browser };
}

const errorOf = (detail: string, code = 'DisplayException') => ({
  errors: [{ code, status: '400', detail }],
});

/** Registers a passkey made by `authenticator` on the signed-in browser's account. */
async function register(
  browser: TestBrowser,
  password: string,
  authenticator: SoftwareAuthenticator,
  name = 'Laptop',
) {
  const options = await browser.post('/api/client/account/passkeys/options', { password });
  expect(options.statusCode).toBe(200);
  return browser.post('/api/client/account/passkeys', {
    name,
    credential: authenticator.create(options.json().data),
  });
}

/** A user with one passkey, signed in nowhere but the browser that registered it. */
async function withPasskey(
  authenticatorOptions: ConstructorParameters<typeof SoftwareAuthenticator>[1] = {},
  overrides: { rootAdmin?: boolean } = {},
) {
  const account = await signedIn(overrides);
  const authenticator = new SoftwareAuthenticator(ORIGIN, authenticatorOptions);
  const created = await register(account.browser, account.password, authenticator);
  expect(created.statusCode).toBe(200);
  return { ...account, authenticator, passkey: created.json().attributes as { id: number; name: string } };
}

async function passwordlessSignIn(authenticator: SoftwareAuthenticator, overrides = {}) {
  const browser = freshBrowser();
  const options = await browser.post('/auth/passkey/options');
  expect(options.statusCode).toBe(200);
  const response = await browser.post('/auth/passkey', {
    credential: authenticator.get(options.json().data, undefined, overrides),
  });
  return { browser, response };
}

const activityOf = (userId: number) =>
  t.db
    .selectFrom('activity_logs')
    .select(['event', 'properties'])
    .where('subject_user_id', '=', userId)
    .orderBy('id')
    .execute();

describe('registering passkeys on the account page', () => {
  it('registers a passkey after the password, lists it and logs it', async () => {
    const { user, browser, passkey } = await withPasskey();
    expect(passkey).toMatchObject({ name: 'Laptop', synced: false, last_used_at: null });
    const list = await browser.get('/api/client/account/passkeys');
    expect(list.json()).toEqual({
      object: 'list',
      data: [{ object: 'passkey', attributes: expect.objectContaining({ id: passkey.id, name: 'Laptop' }) }],
    });
    const events = (await activityOf(user.id)).map((entry) => entry.event);
    expect(events).toContain('user:passkey.create');
  });

  it('asks for the password before the browser is asked, and counts wrong ones', async () => {
    const { browser } = await signedIn();
    const wrong = await browser.post('/api/client/account/passkeys/options', { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].detail).toBe(accountErrorMessages.invalidPassword);
    // No ceremony was started, so an answer has nothing to answer.
    const orphan = await browser.post('/api/client/account/passkeys', {
      name: 'Sneaky',
      credential: new SoftwareAuthenticator(ORIGIN).create({ challenge: 'AAAA', rp: {}, user: { id: 'x' } }),
    });
    expect(orphan.json()).toEqual(errorOf(passkeyMessages.ceremonyExpired));
    expect((await browser.get('/api/client/account/passkeys')).json().data).toEqual([]);
  });

  it('refuses an answer made for another origin, and uses a challenge once', async () => {
    const { browser, password } = await signedIn();
    const options = await browser.post('/api/client/account/passkeys/options', { password });
    const elsewhere = new SoftwareAuthenticator('http://evil.test').create({
      ...options.json().data,
      rp: { id: 'evil.test' },
    });
    const refused = await browser.post('/api/client/account/passkeys', {
      name: 'Evil',
      credential: elsewhere,
    });
    expect(refused.json()).toEqual(errorOf(passkeyMessages.notVerified));
    // The refused answer used the challenge up: a right answer to it is refused too.
    const late = await browser.post('/api/client/account/passkeys', {
      name: 'Late',
      credential: new SoftwareAuthenticator(ORIGIN).create(options.json().data),
    });
    expect(late.json()).toEqual(errorOf(passkeyMessages.ceremonyExpired));
    expect((await browser.get('/api/client/account/passkeys')).json().data).toEqual([]);
  });

  it('refuses a challenge that expired', async () => {
    const { browser, password } = await signedIn();
    const options = await browser.post('/api/client/account/passkeys/options', { password });
    t.advanceClock(passkeyLimits.ceremonyTtlMs + 1000);
    const late = await browser.post('/api/client/account/passkeys', {
      name: 'Slow',
      credential: new SoftwareAuthenticator(ORIGIN).create(options.json().data),
    });
    expect(late.json()).toEqual(errorOf(passkeyMessages.ceremonyExpired));
  });

  it('refuses a second passkey of the same name, and bad names with the validation envelope', async () => {
    const { browser, password } = await withPasskey();
    const twice = await register(browser, password, new SoftwareAuthenticator(ORIGIN), 'Laptop');
    expect(twice.json()).toEqual(errorOf(passkeyMessages.nameTaken));
    const options = await browser.post('/api/client/account/passkeys/options', { password });
    const long = await browser.post('/api/client/account/passkeys', {
      name: 'x'.repeat(65),
      credential: new SoftwareAuthenticator(ORIGIN).create(options.json().data),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0].meta).toEqual({ source_field: 'name', rule: 'max' });
  });

  it('holds the limit of passkeys per account under parallel registrations', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browsers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const browser = freshBrowser();
        await browser.signIn(user.username, password);
        return browser;
      }),
    );
    const [first] = browsers;
    if (!first) throw new Error('no browser');
    for (let i = 0; i < passkeyLimits.perAccount - 1; i++) {
      expect(
        (await register(first, password, new SoftwareAuthenticator(ORIGIN), `Key ${i}`)).statusCode,
      ).toBe(200);
    }
    const answers = await Promise.all(
      browsers.map(async (browser, i) => {
        const options = await browser.post('/api/client/account/passkeys/options', { password });
        return { browser, i, credential: new SoftwareAuthenticator(ORIGIN).create(options.json().data) };
      }),
    );
    const results = await Promise.all(
      answers.map(({ browser, i, credential }) =>
        browser.post('/api/client/account/passkeys', { name: `Last ${i}`, credential }),
      ),
    );
    expect(results.filter((result) => result.statusCode === 200)).toHaveLength(1);
    for (const refused of results.filter((result) => result.statusCode !== 200))
      expect(refused.json()).toEqual(errorOf(passkeyMessages.tooMany));
    expect((await first.get('/api/client/account/passkeys')).json().data).toHaveLength(
      passkeyLimits.perAccount,
    );
  });

  it('renames and removes only the user’s own passkeys', async () => {
    const { user, browser, passkey } = await withPasskey();
    const other = await signedIn();
    expect(
      (await other.browser.send('PATCH', `/api/client/account/passkeys/${passkey.id}`, { name: 'Mine' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await other.browser.send('DELETE', `/api/client/account/passkeys/${passkey.id}`)).statusCode,
    ).toBe(404);

    const renamed = await browser.send('PATCH', `/api/client/account/passkeys/${passkey.id}`, {
      name: 'Phone',
    });
    expect(renamed.json().attributes.name).toBe('Phone');
    expect((await browser.send('DELETE', `/api/client/account/passkeys/${passkey.id}`)).statusCode).toBe(204);
    expect((await browser.get('/api/client/account/passkeys')).json().data).toEqual([]);
    const events = (await activityOf(user.id)).map((entry) => entry.event);
    expect(events).toEqual(expect.arrayContaining(['user:passkey.update', 'user:passkey.delete']));
  });

  it('cannot be managed with an API key', async () => {
    const { user } = await createTestUser(t.ctx);
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'k', allowedIps: [] });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/client/account/passkeys',
      headers: { authorization: `Bearer ${key.identifier}${secret}`, accept: 'application/json' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].detail).toBe(passkeyMessages.notBySessionless);
  });
});

describe('signing in with a passkey', () => {
  it('signs in without a password and logs it', async () => {
    const { user, authenticator } = await withPasskey();
    const { browser, response } = await passwordlessSignIn(authenticator);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ complete: true, user: { uuid: user.uuid } });
    expect((await browser.get('/api/client/account')).json().attributes.username).toBe(user.username);
    const events = (await activityOf(user.id)).map((entry) => entry.event);
    expect(events.slice(-2)).toEqual(['auth:passkey', 'auth:success']);
    const list = await browser.get('/api/client/account/passkeys');
    expect(list.json().data[0].attributes.last_used_at).not.toBeNull();
  });

  it('also signs in an account with 2FA: the verified passkey is both factors', async () => {
    const { user, authenticator } = await withPasskey();
    await enableTwoFactor(t.ctx, user);
    const { response } = await passwordlessSignIn(authenticator);
    expect(response.json().data).toMatchObject({ complete: true, user: { uuid: user.uuid, use_totp: true } });
  });

  it('refuses an answer for another origin or site, a replayed counter, no user verification, an unknown passkey', async () => {
    const { authenticator } = await withPasskey();
    for (const overrides of [{ origin: 'http://evil.test' }, { rpId: 'evil.test' }]) {
      const { browser, response } = await passwordlessSignIn(authenticator, overrides);
      expect(response.json()).toEqual(errorOf(passkeyMessages.notVerified));
      expect((await browser.get('/api/client/account')).statusCode).toBe(401);
    }
    expect((await passwordlessSignIn(authenticator)).response.statusCode).toBe(200);
    // A cloned authenticator answers with a counter the panel has already seen.
    const cloned = await passwordlessSignIn(authenticator, { counter: 1 });
    expect(cloned.response.json()).toEqual(errorOf(passkeyMessages.notVerified));

    const careless = await withPasskey({ userVerified: false }).catch(() => null);
    // Registration itself requires user verification.
    expect(careless).toBeNull();

    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.create({ challenge: 'AAAA', rp: {}, user: { id: 'nobody' } });
    expect((await passwordlessSignIn(stranger)).response.json()).toEqual(errorOf(passkeyMessages.unknown));
  });

  it('refuses an answer without a challenge handed to this browser', async () => {
    const { authenticator } = await withPasskey();
    const options = await freshBrowser().post('/auth/passkey/options');
    const thief = freshBrowser();
    const response = await thief.post('/auth/passkey', {
      credential: authenticator.get(options.json().data),
    });
    expect(response.json()).toEqual(errorOf(passkeyMessages.ceremonyExpired));
  });

  it('stops a removed passkey at once', async () => {
    const { browser, authenticator, passkey } = await withPasskey();
    await browser.send('DELETE', `/api/client/account/passkeys/${passkey.id}`);
    expect((await passwordlessSignIn(authenticator)).response.json()).toEqual(
      errorOf(passkeyMessages.unknown),
    );
  });

  it('is refused where the panel requires single sign-on, except for root admins', async () => {
    const customer = await withPasskey();
    const root = await withPasskey({}, { rootAdmin: true });
    await t.ctx.oauthProviders.create(
      // biome-ignore lint/suspicious/noExplicitAny: the validated body, written by hand.
      { slug: 'hub', name: 'GitHub', kind: 'github', client_id: 'id', client_secret: 'secret' } as any,
      unrecorded,
    );
    await t.ctx.settings.set(SETTING_SSO_REQUIRED, '1');
    try {
      const refused = await passwordlessSignIn(customer.authenticator);
      expect(refused.response.json()).toEqual(errorOf(oauthMessages.ssoRequired));
      expect((await refused.browser.get('/api/client/account')).statusCode).toBe(401);
      expect((await passwordlessSignIn(root.authenticator)).response.statusCode).toBe(200);
    } finally {
      await t.ctx.settings.set(SETTING_SSO_REQUIRED, '0');
    }
  });

  it('counts failures in the sign-in throttle of the address', async () => {
    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.create({ challenge: 'AAAA', rp: {}, user: { id: 'nobody' } });
    const browser = freshBrowser();
    let last = 0;
    for (let i = 0; i < 60 && last !== 429; i++) {
      const options = await browser.post('/auth/passkey/options');
      last = (await browser.post('/auth/passkey', { credential: stranger.get(options.json().data) }))
        .statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('a passkey as the second factor', () => {
  async function atCheckpoint() {
    const account = await withPasskey({ userVerified: true });
    await enableTwoFactor(t.ctx, account.user);
    const browser = freshBrowser();
    const login = await browser.post('/auth/login', {
      user: account.user.username,
      password: account.password,
    });
    return { ...account, browser, token: login.json().data.confirmation_token as string };
  }

  it('completes the 2FA step in place of the code', async () => {
    const { user, authenticator, browser, token } = await atCheckpoint();
    const options = await browser.post('/auth/login/checkpoint/passkey/options', {
      confirmation_token: token,
    });
    expect(options.json().data.allowCredentials).toHaveLength(1);
    const response = await browser.post('/auth/login/checkpoint/passkey', {
      confirmation_token: token,
      credential: authenticator.get(options.json().data),
    });
    expect(response.json().data).toMatchObject({ complete: true, user: { uuid: user.uuid } });
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
  });

  it('refuses another account’s passkey and a wrong confirmation token; the code still works after', async () => {
    const { browser, token } = await atCheckpoint();
    const intruder = await withPasskey();
    const options = await browser.post('/auth/login/checkpoint/passkey/options', {
      confirmation_token: token,
    });
    const refused = await browser.post('/auth/login/checkpoint/passkey', {
      confirmation_token: token,
      credential: intruder.authenticator.get(options.json().data),
    });
    expect(refused.json()).toEqual(errorOf(passkeyMessages.notVerified));
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
    const wrongToken = await browser.post('/auth/login/checkpoint/passkey/options', {
      confirmation_token: 'x'.repeat(64),
    });
    expect(wrongToken.json()).toEqual(errorOf(errorMessages.checkpointExpired));
  });
});
