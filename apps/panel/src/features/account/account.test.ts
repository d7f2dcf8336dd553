import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { API_CLIENT_RATELIMIT: '5' } });
});
afterAll(() => t.close());

describe('GET /api/client/account', () => {
  it('answers 401 with the envelope to a guest', async () => {
    const response = await new TestBrowser(t.app).get('/api/client/account');
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }],
    });
  });

  it('answers the account of the signed-in user', async () => {
    const { user, password } = await createTestUser(t.ctx, {
      username: 'Ivy',
      email: 'ivy@example.com',
      rootAdmin: true,
    });
    const browser = new TestBrowser(t.app);
    await browser.signIn('ivy', password);
    const response = await browser.get('/api/client/account');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'user',
      attributes: {
        id: user.id,
        admin: true,
        username: 'ivy',
        email: 'ivy@example.com',
        first_name: null,
        last_name: null,
        language: 'en',
      },
    });
  });

  it('accepts a trailing slash and the Pterodactyl vendor Accept header', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const response = await browser.get('/api/client/account/', {
      accept: 'Application/vnd.pterodactyl.v1+json',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.username).toBe(user.username);
  });

  it('limits requests per user (API_CLIENT_RATELIMIT per minute) with rate-limit headers', async () => {
    const first = await createTestUser(t.ctx);
    const second = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(first.user.username, first.password);
    const ok = await browser.get('/api/client/account');
    expect(ok.headers['x-ratelimit-limit']).toBe('5');
    expect(ok.headers['x-ratelimit-remaining']).toBe('4');
    for (let i = 0; i < 4; i++) expect((await browser.get('/api/client/account')).statusCode).toBe(200);
    const limited = await browser.get('/api/client/account');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      errors: [{ code: 'TooManyRequestsHttpException', status: '429', detail: 'Too Many Attempts.' }],
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');

    // Another user, from the same IP, has a bucket of their own.
    const other = new TestBrowser(t.app);
    await other.signIn(second.user.username, second.password);
    expect((await other.get('/api/client/account')).statusCode).toBe(200);
  });

  it('does not limit at all with API_CLIENT_RATELIMIT=0', async () => {
    const unlimited = await buildTestApp({ env: { API_CLIENT_RATELIMIT: '0' } });
    try {
      const { user, password } = await createTestUser(unlimited.ctx);
      const browser = new TestBrowser(unlimited.app);
      await browser.signIn(user.username, password);
      for (let i = 0; i < 20; i++) expect((await browser.get('/api/client/account')).statusCode).toBe(200);
      expect((await browser.get('/api/client/account')).headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await unlimited.close();
    }
  });
});
