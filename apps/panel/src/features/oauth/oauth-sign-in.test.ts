import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { resetLinkIn, sentMail } from '@aerie/panel/test/mail-outbox';
import {
  type OidcClaims,
  type OidcProviderProcess,
  ProviderBrowser,
  startOidcProvider,
} from '@aerie/panel/test/oidc-provider-process';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Signing in through a real OpenID Connect provider (`oidc-provider` in its own process on loopback): the panel
 * discovers it, sends the browser there with PKCE, state and nonce, and checks what comes back.
 */

/** Providers of these tests, all on the one client of the provider process. */
const SLUGS = ['corp', 'open', 'domains', 'lenient', 'off'] as const;
type Slug = (typeof SLUGS)[number];

let t: TestApp;
let idp: OidcProviderProcess;
let sequence = 0;
let ipSequence = 0;

beforeAll(async () => {
  idp = await startOidcProvider({
    client_id: 'aerie-panel',
    client_secret: 'a-client-secret',
    redirect_uris: SLUGS.map((slug) => `http://panel.test/auth/oauth/${slug}/callback`),
  });
  t = await buildTestApp({ env: { AERIE_OUTBOUND_ALLOW: '127.0.0.1/32' } });
  const base = {
    kind: 'oidc',
    issuer: idp.issuer,
    client_id: 'aerie-panel',
    client_secret: 'a-client-secret',
  };
  const providers: Record<Slug, Record<string, unknown>> = {
    corp: { name: 'Corp SSO' },
    open: { name: 'Open SSO', create_accounts: true },
    domains: { name: 'Domain SSO', create_accounts: true, email_domains: ['allowed.example'] },
    lenient: { name: 'Lenient SSO', allow_two_factor_accounts: true },
    off: { name: 'Off SSO', enabled: false },
  };
  for (const slug of SLUGS) {
    await t.ctx.oauthProviders.create(
      // biome-ignore lint/suspicious/noExplicitAny: the validated body, written by hand.
      { ...base, slug, ...providers[slug] } as any,
      unrecorded,
    );
  }
}, 30_000);
afterAll(async () => {
  await t?.close();
  await idp?.stop();
});

const newBrowser = () => new TestBrowser(t.app, `10.90.0.${++ipSequence}`);

/** A provider account with its own id and a unique email (unless given). */
async function providerAccount(claims: OidcClaims = {}) {
  const id = `idp-user-${++sequence}`;
  await idp.putAccount(id, { email: `${id}@example.com`, email_verified: true, ...claims });
  return id;
}

/**
 * The browser's whole trip: the panel's redirect, the provider's sign-in as `login`, and back to the callback.
 * @returns where the panel finally sends the browser
 */
async function ssoTrip(
  browser: TestBrowser,
  slug: Slug,
  login: string,
  options: {
    link?: boolean;
    tamperAuthorization?: (url: URL) => void;
    tamperCallback?: (url: URL) => void;
    callbackBrowser?: TestBrowser;
  } = {},
): Promise<string> {
  const start = await browser.get(`/auth/oauth/${slug}/redirect${options.link ? '?link=1' : ''}`);
  expect(start.statusCode, start.body).toBe(302);
  const authorization = new URL(start.headers.location as string);
  if (authorization.origin !== idp.issuer) return start.headers.location as string;
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toBeTruthy();
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  expect(authorization.searchParams.get('redirect_uri')).toBe(
    `http://panel.test/auth/oauth/${slug}/callback`,
  );
  options.tamperAuthorization?.(authorization);
  const callback = await new ProviderBrowser().signIn(authorization.href, login);
  expect(callback.origin).toBe('http://panel.test');
  options.tamperCallback?.(callback);
  const end = await (options.callbackBrowser ?? browser).get(`${callback.pathname}${callback.search}`);
  expect(end.statusCode, end.body).toBe(302);
  return end.headers.location as string;
}

async function accountOf(browser: TestBrowser) {
  const response = await browser.get('/api/client/account');
  return response.statusCode === 200
    ? (response.json().attributes as { username: string; email: string })
    : null;
}

async function eventsOf(userId: number) {
  const rows = await t.db
    .selectFrom('activity_logs')
    .select(['event', 'properties'])
    .where('subject_user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ event: row.event, properties: JSON.parse(row.properties) }));
}

async function signedInUser(username: string, password: string) {
  const browser = newBrowser();
  await browser.signIn(username, password);
  return browser;
}

describe('GET /auth/oauth/providers', () => {
  it('lists the enabled providers for the sign-in page, nothing more', async () => {
    const response = await newBrowser().get('/auth/oauth/providers');
    expect(response.statusCode).toBe(200);
    const data = response.json().data as { slug: string }[];
    expect(data.map((item) => item.slug).sort()).toEqual(['corp', 'domains', 'lenient', 'open']);
    expect(data.find((item) => item.slug === 'corp')).toEqual({
      slug: 'corp',
      name: 'Corp SSO',
      kind: 'oidc',
    });
  });
});

describe('linking and signing in', () => {
  it('links a provider from a signed-in session, then signs that account in with it', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const login = await providerAccount();
    const browser = await signedInUser(user.username, password);
    expect(await ssoTrip(browser, 'corp', login, { link: true })).toBe('/account');
    const links = await browser.get('/api/client/account/oauth');
    expect(links.statusCode).toBe(200);
    expect(
      links.json().data.find((item: { attributes: { slug: string } }) => item.attributes.slug === 'corp'),
    ).toEqual({
      object: 'oauth_link',
      attributes: {
        slug: 'corp',
        name: 'Corp SSO',
        kind: 'oidc',
        linked: true,
        linked_at: expect.any(String),
        email: `${login}@example.com`,
      },
    });

    const guest = newBrowser();
    expect(await ssoTrip(guest, 'corp', login)).toBe('/');
    expect((await accountOf(guest))?.username).toBe(user.username);
    const events = (await eventsOf(user.id)).map((entry) => entry.event);
    expect(events).toEqual(expect.arrayContaining(['user:oauth.link', 'auth:oauth', 'auth:success']));
    expect((await eventsOf(user.id)).find((entry) => entry.event === 'auth:oauth')?.properties).toMatchObject(
      {
        provider: 'Corp SSO',
        ip: guest.ip,
      },
    );
  });

  it('refuses to link a provider account that is linked to another account', async () => {
    const login = await providerAccount();
    const first = await createTestUser(t.ctx);
    expect(
      await ssoTrip(await signedInUser(first.user.username, first.password), 'corp', login, { link: true }),
    ).toBe('/account');
    const second = await createTestUser(t.ctx);
    const browser = await signedInUser(second.user.username, second.password);
    expect(await ssoTrip(browser, 'corp', login, { link: true })).toBe('/account?sso_error=linked_elsewhere');
  });

  it('never signs in an existing account by its email when it was not linked', async () => {
    const { user } = await createTestUser(t.ctx);
    const login = await providerAccount({ email: user.email, email_verified: true });
    const browser = newBrowser();
    expect(await ssoTrip(browser, 'open', login)).toBe('/auth/login?sso_error=email_taken');
    expect(await accountOf(browser)).toBeNull();
    expect(await ssoTrip(newBrowser(), 'corp', login)).toBe('/auth/login?sso_error=email_taken');
    const failures = (await eventsOf(user.id)).filter((entry) => entry.event === 'auth:oauth-fail');
    expect(failures[0]?.properties).toMatchObject({ provider: 'Open SSO', reason: 'email_taken' });
    expect(
      await t.db.selectFrom('user_oauth_links').where('user_id', '=', user.id).selectAll().execute(),
    ).toEqual([]);
  });
});

describe('first sign-in', () => {
  it('creates an account when the provider may, with no usable password', async () => {
    const login = await providerAccount({ preferred_username: 'New.Person' });
    const browser = newBrowser();
    expect(await ssoTrip(browser, 'open', login)).toBe('/');
    const account = await accountOf(browser);
    expect(account).toMatchObject({ username: 'new.person', email: `${login}@example.com` });
    const user = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', `${login}@example.com`)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.has_password)).toBe(false);
    expect((await eventsOf(user.id)).map((entry) => entry.event)).toEqual([
      'user:oauth.create-account',
      'auth:oauth',
      'auth:success',
    ]);
    // The same provider account signs in to the same panel account next time.
    const again = newBrowser();
    expect(await ssoTrip(again, 'open', login)).toBe('/');
    expect((await accountOf(again))?.username).toBe('new.person');
  });

  it('refuses when the provider may not create accounts, or the email is not verified', async () => {
    const login = await providerAccount();
    const browser = newBrowser();
    expect(await ssoTrip(browser, 'corp', login)).toBe('/auth/login?sso_error=no_account');
    expect(await accountOf(browser)).toBeNull();
    const unverified = await providerAccount({ email_verified: false });
    expect(await ssoTrip(newBrowser(), 'open', unverified)).toBe('/auth/login?sso_error=no_account');
    expect(
      await t.db
        .selectFrom('users')
        .select('id')
        .where('email', 'in', [`${login}@example.com`, `${unverified}@example.com`])
        .execute(),
    ).toEqual([]);
  });

  it("refuses an email outside the provider's domains, and creates the account inside them", async () => {
    const outside = await providerAccount({ email: `someone${sequence}@elsewhere.example` });
    expect(await ssoTrip(newBrowser(), 'domains', outside)).toBe('/auth/login?sso_error=domain');
    const inside = await providerAccount({ email: `someone${sequence}@allowed.example` });
    const browser = newBrowser();
    expect(await ssoTrip(browser, 'domains', inside)).toBe('/');
    expect((await accountOf(browser))?.email).toMatch(/@allowed\.example$/);
  });
});

describe('answers that are not this browser’s', () => {
  it('refuses a tampered state', async () => {
    const login = await providerAccount();
    const browser = newBrowser();
    const location = await ssoTrip(browser, 'open', login, {
      tamperCallback: (url) => url.searchParams.set('state', 'forged-state'),
    });
    expect(location).toBe('/auth/login?sso_error=state');
    expect(await accountOf(browser)).toBeNull();
  });

  it('refuses an ID token carrying another nonce', async () => {
    const login = await providerAccount();
    const browser = newBrowser();
    const location = await ssoTrip(browser, 'open', login, {
      tamperAuthorization: (url) => url.searchParams.set('nonce', 'a-nonce-the-panel-never-issued'),
    });
    expect(location).toBe('/auth/login?sso_error=state');
    expect(await accountOf(browser)).toBeNull();
  });

  it('refuses a callback replayed in another session, and the same callback twice', async () => {
    const login = await providerAccount();
    const victim = newBrowser();
    const attacker = newBrowser();
    expect(await ssoTrip(victim, 'open', login, { callbackBrowser: attacker })).toBe(
      '/auth/login?sso_error=state',
    );
    expect(await accountOf(attacker)).toBeNull();

    const browser = newBrowser();
    let callback = '';
    expect(
      await ssoTrip(browser, 'open', login, {
        tamperCallback: (url) => {
          callback = `${url.pathname}${url.search}`;
        },
      }),
    ).toBe('/');
    const replay = newBrowser();
    await replay.get('/auth/oauth/open/redirect');
    expect((await replay.get(callback)).headers.location).toBe('/auth/login?sso_error=state');
  });

  it('refuses a disabled or unknown provider', async () => {
    expect((await newBrowser().get('/auth/oauth/off/redirect')).headers.location).toBe(
      '/auth/login?sso_error=disabled',
    );
    expect((await newBrowser().get('/auth/oauth/nobody/redirect')).headers.location).toBe(
      '/auth/login?sso_error=disabled',
    );
  });

  it('sends the user back with denied when they decline at the provider', async () => {
    const browser = newBrowser();
    const state = new URL(
      (await browser.get('/auth/oauth/open/redirect')).headers.location as string,
    ).searchParams.get('state');
    const response = await browser.get(`/auth/oauth/open/callback?error=access_denied&state=${state}`);
    expect(response.headers.location).toBe('/auth/login?sso_error=denied');
    // The state is checked first: no answer is taken that this browser did not ask for.
    await browser.get('/auth/oauth/open/redirect');
    const forged = await browser.get('/auth/oauth/open/callback?error=access_denied&state=whatever');
    expect(forged.headers.location).toBe('/auth/login?sso_error=state');
  });
});

describe('two-factor accounts', () => {
  it('sends an account with 2FA through the TOTP step unless the provider may skip it', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const { secret } = await enableTwoFactor(t.ctx, user);
    const login = await providerAccount();
    const owner = newBrowser();
    await owner.post('/auth/login', { user: user.username, password });
    const step = await owner.post('/auth/login/checkpoint', {
      confirmation_token: (await owner.post('/auth/login', { user: user.username, password })).json().data
        .confirmation_token,
      authentication_code: await generate({ secret }),
    });
    expect(step.statusCode, step.body).toBe(200);
    await owner.open('/');
    expect(await ssoTrip(owner, 'corp', login, { link: true })).toBe('/account');
    expect(await ssoTrip(owner, 'lenient', login, { link: true })).toBe('/account');

    const browser = newBrowser();
    expect(await ssoTrip(browser, 'corp', login)).toBe('/auth/login/checkpoint?sso=1');
    expect(await accountOf(browser)).toBeNull();
    const token = await browser.get('/auth/oauth/checkpoint');
    expect(token.statusCode, token.body).toBe(200);
    const confirmation = token.json().data.confirmation_token as string;
    expect(confirmation).toMatch(/^[A-Za-z0-9]{64}$/);
    await browser.open('/auth/login/checkpoint?sso=1');
    const done = await browser.post('/auth/login/checkpoint', {
      confirmation_token: confirmation,
      authentication_code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await accountOf(browser))?.username).toBe(user.username);

    // Nobody else's session gets a token.
    expect((await newBrowser().get('/auth/oauth/checkpoint')).statusCode).toBe(400);

    const lenient = newBrowser();
    expect(await ssoTrip(lenient, 'lenient', login)).toBe('/');
    expect((await accountOf(lenient))?.username).toBe(user.username);
  });
});

describe('unlinking', () => {
  it('unlinks from an account that has a password', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = await signedInUser(user.username, password);
    expect(await ssoTrip(browser, 'corp', await providerAccount(), { link: true })).toBe('/account');
    await browser.open('/account');
    expect((await browser.send('DELETE', '/api/client/account/oauth/corp')).statusCode).toBe(204);
    expect((await eventsOf(user.id)).map((entry) => entry.event)).toContain('user:oauth.unlink');
    const again = await browser.send('DELETE', '/api/client/account/oauth/corp');
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0].detail).toBe(oauthMessages.notLinked);
  });

  it('refuses to unlink the last way into an account without a password, until a reset gives it one', async () => {
    const login = await providerAccount();
    const browser = newBrowser();
    expect(await ssoTrip(browser, 'open', login)).toBe('/');
    await browser.open('/account');
    const refused = await browser.send('DELETE', '/api/client/account/oauth/open');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      errors: [{ code: 'DisplayException', status: '400', detail: oauthMessages.lastWayIn }],
    });

    // "Forgot password" gives the account a password of its own…
    await newBrowser().post('/auth/password', { email: `${login}@example.com` });
    const mails = await sentMail(t);
    const { token, email } = resetLinkIn(mails.find((mail) => mail.includes(login)) as string);
    const reset = await newBrowser().post('/auth/password/reset', {
      email,
      token,
      password: 'a password of my own',
      password_confirmation: 'a password of my own',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // …after which the provider may go.
    const signedIn = newBrowser();
    expect(await ssoTrip(signedIn, 'open', login)).toBe('/');
    await signedIn.open('/account');
    expect((await signedIn.send('DELETE', '/api/client/account/oauth/open')).statusCode).toBe(204);
  });

  it('is for the session only: an API key cannot list or unlink', async () => {
    const { user } = await createTestUser(t.ctx);
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'k', allowedIps: [] });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/client/account/oauth',
      headers: { authorization: `Bearer ${key.identifier}${secret}`, accept: 'application/json' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].detail).toBe(oauthMessages.sessionOnly);
  });
});

describe('requiring single sign-on', () => {
  it('refuses password sign-ins to everyone but root admins while on', async () => {
    const rootAccount = await createTestUser(t.ctx, { rootAdmin: true });
    const rootBrowser = await signedInUser(rootAccount.user.username, rootAccount.password);
    const member = await createTestUser(t.ctx);
    const on = await rootBrowser.send('PATCH', '/api/application/settings', { sso_required: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().attributes.sso_required).toBe(true);
    try {
      const refused = await newBrowser().post('/auth/login', {
        user: member.user.username,
        password: member.password,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        errors: [{ code: 'DisplayException', status: '400', detail: oauthMessages.ssoRequired }],
      });
      // A wrong password is still just a wrong password.
      const wrong = await newBrowser().post('/auth/login', { user: member.user.username, password: 'nope' });
      expect(wrong.json().errors[0].detail).toBe('No account matching those credentials could be found.');
      await signedInUser(rootAccount.user.username, rootAccount.password);
    } finally {
      await rootBrowser.send('PATCH', '/api/application/settings', { sso_required: false });
    }
    await signedInUser(member.user.username, member.password);
  });
});
