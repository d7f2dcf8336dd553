import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import { createGuardedFetch } from '@aerie/panel/http/outbound/guarded-fetch';
import { OutboundPolicy } from '@aerie/panel/http/outbound/outbound-policy';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { OAuth2PresetStandIn, type StandInUser } from '@aerie/panel/test/oauth2-preset-stand-in';
import { oauthProviderCreateSchema } from '@aerie/shared/oauth/oauth-bodies';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthClients } from './oauth-clients';

/**
 * The Discord and GitHub presets, end to end through the panel's real OAuth client, against a stand-in of their
 * endpoints and user APIs on loopback (this machine reaches neither service).
 */
let t: TestApp;
const standIn = new OAuth2PresetStandIn({ id: 'preset-client', secret: 'preset-secret' });
let ipSequence = 0;
let userSequence = 0;

beforeAll(async () => {
  await standIn.start();
  t = await buildTestApp({ env: { AERIE_OUTBOUND_ALLOW: '127.0.0.1/32' } });
  const policy = new OutboundPolicy(t.config.outboundAllow);
  // The panel's own client, with Discord's and GitHub's addresses pointed at the stand-in.
  Object.assign(t.ctx, {
    oauthClients: new OAuthClients({
      appUrl: t.config.appUrl,
      secretBox: t.ctx.secretBox,
      policy,
      fetch: createGuardedFetch(policy),
      clock: t.ctx.clock,
      presets: standIn.presets(),
    }),
  });
  for (const [slug, kind] of [
    ['disc', 'discord'],
    ['hub', 'github'],
  ] as const) {
    const body = oauthProviderCreateSchema.parse({
      slug,
      name: slug,
      kind,
      client_id: 'preset-client',
      client_secret: 'preset-secret',
      create_accounts: true,
    });
    await t.ctx.oauthProviders.create(body, unrecorded);
  }
});
afterAll(async () => {
  await t?.close();
  await standIn.stop();
});

const newBrowser = () => new TestBrowser(t.app, `10.91.0.${++ipSequence}`);
const someone = (overrides: Partial<StandInUser> = {}): StandInUser => {
  const id = String(7_000_000 + ++userSequence);
  return { id, username: `player${id}`, email: `player${id}@example.com`, verified: true, ...overrides };
};

/** Panel → the preset's authorize endpoint (which answers at once as `user`) → the panel's callback. */
async function presetTrip(
  browser: TestBrowser,
  slug: 'disc' | 'hub',
  user: StandInUser,
  tamper?: (authorization: URL) => void,
): Promise<string> {
  standIn.nextUser = user;
  const start = await browser.get(`/auth/oauth/${slug}/redirect`);
  expect(start.statusCode, start.body).toBe(302);
  const authorization = new URL(start.headers.location as string);
  expect(authorization.origin).toBe(standIn.origin);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('nonce')).toBeNull();
  tamper?.(authorization);
  const back = await fetch(authorization, { redirect: 'manual' });
  const callback = new URL(back.headers.get('location') ?? '');
  expect(callback.origin).toBe('http://panel.test');
  const end = await browser.get(`${callback.pathname}${callback.search}`);
  expect(end.statusCode, end.body).toBe(302);
  return end.headers.location as string;
}

const accountOf = async (browser: TestBrowser) => {
  const response = await browser.get('/api/client/account');
  return response.statusCode === 200
    ? (response.json().attributes as { username: string; email: string })
    : null;
};

describe('the Discord preset', () => {
  it('creates an account from the verified email at the first sign-in and signs it in again by its id', async () => {
    const user = someone();
    const first = newBrowser();
    expect(await presetTrip(first, 'disc', user)).toBe('/');
    expect(await accountOf(first)).toMatchObject({ email: user.email, username: user.username });
    // The same Discord id, even with another email now, is the same panel account.
    const again = newBrowser();
    expect(await presetTrip(again, 'disc', { ...user, email: 'changed@example.com' })).toBe('/');
    expect((await accountOf(again))?.username).toBe(user.username);
  });

  it('creates nothing for an address Discord has not verified', async () => {
    const browser = newBrowser();
    expect(await presetTrip(browser, 'disc', someone({ verified: false }))).toBe(
      '/auth/login?sso_error=no_account',
    );
    expect(await accountOf(browser)).toBeNull();
  });

  it('fails when the code was issued for another PKCE challenge', async () => {
    const browser = newBrowser();
    const location = await presetTrip(browser, 'disc', someone(), (authorization) =>
      authorization.searchParams.set('code_challenge', 'A'.repeat(43)),
    );
    expect(location).toBe('/auth/login?sso_error=failed');
    expect(await accountOf(browser)).toBeNull();
  });
});

describe('the GitHub preset', () => {
  it('uses the primary verified address of the account’s several', async () => {
    const user = someone({
      email: undefined,
      emails: [
        { email: 'old@example.com', primary: false, verified: true },
        { email: 'main@example.com', primary: true, verified: true },
        { email: 'unverified@example.com', primary: false, verified: false },
      ],
    });
    const browser = newBrowser();
    expect(await presetTrip(browser, 'hub', user)).toBe('/');
    expect(await accountOf(browser)).toMatchObject({ email: 'main@example.com' });
  });

  it('creates nothing when the primary address is not verified', async () => {
    const browser = newBrowser();
    const user = someone({ emails: [{ email: 'new@example.com', primary: true, verified: false }] });
    expect(await presetTrip(browser, 'hub', user)).toBe('/auth/login?sso_error=no_account');
  });
});
