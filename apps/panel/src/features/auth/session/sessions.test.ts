import { sha256 } from '@aerie/panel/crypto/tokens';
import { readDate } from '@aerie/panel/db/dialect';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const MINUTE = 60_000;

async function signedIn() {
  const { user, password } = await createTestUser(t.ctx);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, browser };
}

const storedSession = (browser: TestBrowser) =>
  t.db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sha256(browser.cookies.get('aerie_session') as string))
    .executeTakeFirst();

describe('browser sessions', () => {
  it('stores only a hash of the cookie, with the user id', async () => {
    const { user, browser } = await signedIn();
    const token = browser.cookies.get('aerie_session') as string;
    const row = await storedSession(browser);
    expect(row?.user_id).toBe(user.id);
    expect(row?.id).toBe(sha256(token));
    const byToken = await t.db.selectFrom('sessions').select('id').where('id', '=', token).executeTakeFirst();
    expect(byToken).toBeUndefined();
  });

  it('does not write to the database on every request', async () => {
    const { browser } = await signedIn();
    const before = readDate((await storedSession(browser))?.expires_at as Date).getTime();
    t.advanceClock(30_000);
    try {
      const response = await browser.get('/api/client/account');
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(readDate((await storedSession(browser))?.expires_at as Date).getTime()).toBe(before);
    } finally {
      t.advanceClock(-30_000);
    }
  });

  it('slides: a session in use outlives 720 minutes, an idle one ends after them', async () => {
    const active = await signedIn();
    const idle = await signedIn();
    let moved = 0;
    const advance = (ms: number) => {
      t.advanceClock(ms);
      moved += ms;
    };
    try {
      advance(700 * MINUTE);
      const touched = await active.browser.get('/api/client/account');
      expect(touched.statusCode).toBe(200);
      // The expiry moved, and the cookie was sent again with a fresh lifetime.
      expect(String(touched.headers['set-cookie'])).toMatch(/aerie_session=.*Max-Age=43200/);
      advance(700 * MINUTE);
      expect((await active.browser.get('/api/client/account')).statusCode).toBe(200);
      const ended = await idle.browser.get('/api/client/account');
      expect(ended.statusCode).toBe(401);
      // The dead session is removed and its cookie cleared.
      expect(idle.browser.cookies.has('aerie_session')).toBe(false);
    } finally {
      t.advanceClock(-moved);
    }
  });

  it('gives a new session id on sign-in, dropping the guest session it had', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    // A 2FA-less sign-in from a browser that already had a (guest) session cookie.
    await t.ctx.db.updateTable('users').set({ use_totp: true }).where('id', '=', user.id).execute();
    await browser.post('/auth/login', { user: user.username, password });
    const guestCookie = browser.cookies.get('aerie_session') as string;
    expect(guestCookie).toBeDefined();
    await t.ctx.db.updateTable('users').set({ use_totp: false }).where('id', '=', user.id).execute();
    await browser.signIn(user.username, password);
    const signedInCookie = browser.cookies.get('aerie_session') as string;
    expect(signedInCookie).not.toBe(guestCookie);
    const old = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sha256(guestCookie))
      .executeTakeFirst();
    expect(old).toBeUndefined();
  });

  it('ignores a made-up session cookie', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/client/account',
      headers: { cookie: 'aerie_session=made-up' },
    });
    expect(response.statusCode).toBe(401);
    expect(String(response.headers['set-cookie'])).toMatch(/aerie_session=;/);
  });
});
