import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInLimits } from './sign-in-throttle';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const lockoutMessage = /^Too many login attempts\. Please try again in \d+ seconds\.$/;
const wrong = (browser: TestBrowser, user: string) =>
  browser.post('/auth/login', { user, password: 'wrong' });

/** The events logged on a user's account, oldest first. */
async function accountEvents(userId: number) {
  return t.db
    .selectFrom('activity_logs')
    .select(['event', 'ip'])
    .where('subject_user_id', '=', userId)
    .orderBy('id')
    .execute();
}

describe('sign-in throttle: account + address', () => {
  it('lets user B sign in from the address an attacker is failing against account A from', async () => {
    const a = await createTestUser(t.ctx);
    const b = await createTestUser(t.ctx);
    const attacker = new TestBrowser(t.app, '10.50.0.1');
    for (let i = 0; i < 5; i++) expect((await wrong(attacker, a.user.username)).statusCode).toBe(400);
    const locked = await attacker.post('/auth/login', { user: a.user.username, password: a.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().errors[0].detail).toMatch(lockoutMessage);

    // Someone else behind the same address (a home NAT, an office, a proxy without TRUST_PROXY).
    const neighbour = new TestBrowser(t.app, '10.50.0.1');
    const signedIn = await neighbour.post('/auth/login', { user: b.user.username, password: b.password });
    expect(signedIn.statusCode).toBe(200);
    // And A from anywhere else.
    const owner = new TestBrowser(t.app, '10.50.0.2');
    expect((await owner.post('/auth/login', { user: a.user.email, password: a.password })).statusCode).toBe(
      200,
    );
  });

  it('never keeps A out from an address A signed in from before, while strangers fail against A from many', async () => {
    const a = await createTestUser(t.ctx);
    await new TestBrowser(t.app, '10.51.0.1').signIn(a.user.username, a.password);

    // One failure past the free ones, each from another address: the account is being slowed down.
    const failures = signInLimits.accountFreeFailures + 1;
    for (let i = 0; i < failures; i++) {
      const response = await wrong(new TestBrowser(t.app, `10.52.0.${i + 1}`), a.user.username);
      expect(response.statusCode).toBe(400);
    }
    // A stranger's next try, from yet another address, has to wait…
    const stranger = await wrong(new TestBrowser(t.app, '10.52.1.1'), a.user.username);
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().errors[0]).toMatchObject({
      code: 'ValidationException',
      status: '429',
      meta: { source_field: 'email' },
    });
    expect(stranger.json().errors[0].detail).toMatch(lockoutMessage);
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
    // …and so does A from a new place…
    const elsewhere = new TestBrowser(t.app, '10.53.0.1');
    expect(
      (await elsewhere.post('/auth/login', { user: a.user.username, password: a.password })).statusCode,
    ).toBe(429);
    // …but A from the address that worked before signs in at once.
    const home = new TestBrowser(t.app, '10.51.0.1');
    const response = await home.post('/auth/login', { user: a.user.username, password: a.password });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.complete).toBe(true);
  });

  it('lets no more guesses through in parallel than one after the other', async () => {
    const a = await createTestUser(t.ctx);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        wrong(new TestBrowser(t.app, `10.59.0.${i + 1}`), a.user.username),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    const checked = signInLimits.accountFreeFailures + 1;
    expect(statuses.filter((status) => status === 400)).toHaveLength(checked);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - checked);
  });

  it('answers 429 with the reference message at the per-address ceiling, for every account from there', async () => {
    const victim = await createTestUser(t.ctx);
    const noisy = new TestBrowser(t.app, '10.54.0.1');
    // Different names, so no account + address count fills up first.
    for (let i = 0; i < signInLimits.addressFailures; i++) {
      expect((await wrong(noisy, `nobody-${i}`)).statusCode).toBe(400);
    }
    const over = await noisy.post('/auth/login', { user: victim.user.username, password: victim.password });
    expect(over.statusCode).toBe(429);
    const [error] = over.json().errors;
    expect(error).toMatchObject({
      code: 'ValidationException',
      status: '429',
      meta: { source_field: 'email' },
    });
    expect(error.detail).toMatch(lockoutMessage);
    const seconds = Number(/in (\d+) seconds/.exec(error.detail)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(over.headers['retry-after']).toBe(String(seconds));
    expect(over.headers['x-ratelimit-limit']).toBe(String(signInLimits.addressFailures));
    // The address only: the same account from another address is fine.
    const other = new TestBrowser(t.app, '10.54.0.2');
    expect(
      (await other.post('/auth/login', { user: victim.user.username, password: victim.password })).statusCode,
    ).toBe(200);
  });

  it('answers an unknown account exactly as a known one', async () => {
    const known = await createTestUser(t.ctx);
    const answers = async (user: string, ip: string) => {
      const browser = new TestBrowser(t.app, ip);
      const statuses: number[] = [];
      const bodies: unknown[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await wrong(browser, user);
        statuses.push(response.statusCode);
        bodies.push(response.json().errors.map((e: { detail: string }) => e.detail.replace(/\d+/, 'N')));
      }
      return { statuses, bodies };
    };
    const forKnown = await answers(known.user.username, '10.55.0.1');
    const forUnknown = await answers('ghost-of-nobody', '10.55.0.2');
    expect(forKnown.statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(forUnknown).toEqual(forKnown);
  });

  it('logs failed and throttled sign-ins on the account, a refusal once a minute', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app, '10.56.0.1');
    for (let i = 0; i < 5; i++) await wrong(browser, user.username);
    for (let i = 0; i < 3; i++) {
      expect((await browser.post('/auth/login', { user: user.username, password })).statusCode).toBe(429);
    }
    const events = await accountEvents(user.id);
    expect(events.map((e) => e.event)).toEqual([...Array(5).fill('auth:fail'), 'auth:throttled']);
    expect(events.every((e) => e.ip === '10.56.0.1')).toBe(true);
  });
});

describe('client address', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const { user } = await createTestUser(t.ctx);
    const peer = new TestBrowser(t.app, '10.57.0.1');
    // Every attempt claims another address: all of them count against the peer's own.
    for (let i = 0; i < signInLimits.addressFailures; i++) {
      const response = await peer.post(
        '/auth/login',
        { user: i === 0 ? user.username : `spoof-${i}`, password: 'wrong' },
        { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } },
      );
      expect(response.statusCode).toBe(400);
    }
    const over = await peer.post(
      '/auth/login',
      { user: 'spoof-last', password: 'wrong' },
      { headers: { 'x-forwarded-for': '198.51.100.99' } },
    );
    expect(over.statusCode).toBe(429);
    // The failure is logged with the peer's address, not the claimed one.
    expect(await accountEvents(user.id)).toEqual([{ event: 'auth:fail', ip: '10.57.0.1' }]);
  });

  it('takes the client address from X-Forwarded-For behind a trusted proxy, by hop count', async () => {
    const proxied = await buildTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const { user, password } = await createTestUser(proxied.ctx);
      // The proxy appended the address it saw; whatever the client put before it is not believed.
      const browser = new TestBrowser(proxied.app, '127.0.0.1');
      const headers = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' };
      await browser.post('/auth/login', { user: user.username, password: 'wrong' }, { headers });
      expect(
        (await browser.post('/auth/login', { user: user.username, password }, { headers })).statusCode,
      ).toBe(200);
      const events = await proxied.db
        .selectFrom('activity_logs')
        .select(['event', 'ip'])
        .orderBy('id')
        .execute();
      expect(events).toEqual([
        { event: 'auth:fail', ip: '203.0.113.7' },
        { event: 'auth:success', ip: '203.0.113.7' },
      ]);
    } finally {
      await proxied.close();
    }
  });
});
