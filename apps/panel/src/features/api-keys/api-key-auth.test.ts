import { sha256 } from '@aerie/panel/crypto/tokens';
import { readNullableDate } from '@aerie/panel/db/dialect';
import type { User } from '@aerie/panel/features/users/user';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_KEY } from './api-key';
import { insertKey } from './api-keys.repository';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function userWithKey(allowedIps: string[] = []) {
  const { user, password } = await createTestUser(t.ctx);
  const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'test key', allowedIps });
  return { user, password, key, bearer: `${key.identifier}${secret}` };
}

/** A plain API client: bearer token, JSON, no cookies, no CSRF token. */
function apiRequest(
  bearer: string,
  options: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown; ip?: string },
) {
  return t.app.inject({
    method: options.method ?? 'GET',
    url: options.url,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: {
      authorization: `Bearer ${bearer}`,
      accept: 'application/json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
}

const lastUsedAt = async (identifier: string) =>
  readNullableDate(
    (
      await t.db
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('identifier', '=', identifier)
        .executeTakeFirst()
    )?.last_used_at ?? null,
  );

const unauthenticated = {
  errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }],
};

const accountOf = (user: User) => ({
  object: 'user',
  attributes: expect.objectContaining({ id: user.id, username: user.username, email: user.email }),
});

describe('Authorization: Bearer on /api/client', () => {
  it('authenticates as the key’s user', async () => {
    const { user, bearer } = await userWithKey();
    const response = await apiRequest(bearer, { url: '/api/client/account' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(accountOf(user));
  });

  it('accepts the Pterodactyl vendor Accept header and trailing slashes', async () => {
    const { user, bearer } = await userWithKey();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/client/account/',
      headers: { authorization: `Bearer ${bearer}`, accept: 'Application/vnd.pterodactyl.v1+json' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(accountOf(user));
  });

  it('needs no CSRF token on mutating routes, unlike a session request (419)', async () => {
    const { user, password, bearer } = await userWithKey();
    const created = await apiRequest(bearer, {
      method: 'POST',
      url: '/api/client/account/api-keys',
      body: { description: 'made by a script' },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().attributes.description).toBe('made by a script');

    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const withoutToken = await browser.post(
      '/api/client/account/api-keys',
      { description: 'x' },
      { csrf: false },
    );
    expect(withoutToken.statusCode).toBe(419);
    expect(withoutToken.json()).toEqual({
      errors: [{ code: 'HttpException', status: '419', detail: 'CSRF token mismatch.' }],
    });
  });

  it('answers 401, not 419, to a write with no key and no cookie at all (as Pterodactyl does)', async () => {
    for (const url of ['/api/client/account/api-keys', '/api/application/users']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        payload: JSON.stringify({ description: 'x' }),
      });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual(unauthenticated);
    }
    // A browser's request (it carries cookies) still needs its token.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/client/account/api-keys',
      headers: { 'content-type': 'application/json', cookie: 'aerie_csrf=x' },
      payload: '{}',
    });
    expect(anonymous.statusCode).toBe(419);
  });

  it('answers 401 to a wrong secret, an unknown identifier and a malformed token', async () => {
    const { key, bearer } = await userWithKey();
    const wrongSecret = `${key.identifier}${'x'.repeat(32)}`;
    const unknown = `ptlc_Nonexistent${bearer.slice(16)}`.slice(0, 48);
    for (const token of [wrongSecret, unknown, bearer.slice(0, 47), `${bearer}x`, key.identifier, '']) {
      const response = await apiRequest(token, { url: '/api/client/account' });
      expect(response.statusCode, token).toBe(401);
      expect(response.json()).toEqual(unauthenticated);
    }
  });

  it('does not fall back to the session cookie when the bearer token is bad', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const response = await browser.get('/api/client/account', {
      authorization: `Bearer ptlc_${'x'.repeat(43)}`,
    });
    expect(response.statusCode).toBe(401);
    // A good key wins over the cookie of another user.
    const other = await userWithKey();
    const asKey = await browser.get('/api/client/account', { authorization: `Bearer ${other.bearer}` });
    expect(asKey.json()).toEqual(accountOf(other.user));
  });

  it('stops working as soon as the key is deleted', async () => {
    const { key, bearer } = await userWithKey();
    expect((await apiRequest(bearer, { url: '/api/client/account' })).statusCode).toBe(200);
    const deleted = await apiRequest(bearer, {
      method: 'DELETE',
      url: `/api/client/account/api-keys/${key.identifier}`,
    });
    expect(deleted.statusCode).toBe(204);
    const after = await apiRequest(bearer, { url: '/api/client/account' });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(unauthenticated);
  });

  it('records last_used_at, writing it at most once a minute', async () => {
    const { key, bearer } = await userWithKey();
    expect(await lastUsedAt(key.identifier)).toBeNull();
    await apiRequest(bearer, { url: '/api/client/account' });
    const first = await lastUsedAt(key.identifier);
    expect(first).not.toBeNull();
    expect(Math.abs((first as Date).getTime() - t.ctx.clock().getTime())).toBeLessThan(5_000);
    const listed = await apiRequest(bearer, { url: '/api/client/account/api-keys' });
    expect(listed.json().data[0].attributes.last_used_at).toMatch(/\+00:00$/);

    t.advanceClock(30_000);
    try {
      await apiRequest(bearer, { url: '/api/client/account' });
      expect((await lastUsedAt(key.identifier))?.getTime()).toBe(first?.getTime());
      t.advanceClock(31_000);
      await apiRequest(bearer, { url: '/api/client/account' });
      expect((await lastUsedAt(key.identifier))?.getTime()).toBeGreaterThan(
        (first as Date).getTime() + 60_000,
      );
    } finally {
      t.advanceClock(-61_000);
    }
  });

  it('refuses an application key (ptla_) with 403', async () => {
    const { user } = await createTestUser(t.ctx);
    const secret = 'S'.repeat(32);
    await insertKey(
      t.db,
      {
        userId: user.id,
        keyType: APPLICATION_KEY,
        identifier: 'ptla_AdminKey123',
        tokenHash: sha256(secret),
        description: 'application key',
        allowedIps: [],
      },
      t.ctx.clock(),
    );
    const response = await apiRequest(`ptla_AdminKey123${secret}`, { url: '/api/client/account' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'AccessDeniedHttpException',
          status: '403',
          detail:
            'You are attempting to use an application API key on an endpoint that requires a client API key.',
        },
      ],
    });
    // With a wrong secret it is just unauthenticated.
    expect(
      (await apiRequest(`ptla_AdminKey123${'x'.repeat(32)}`, { url: '/api/client/account' })).statusCode,
    ).toBe(401);
  });
});

describe('the IP allow-list of a key', () => {
  const denied = (ip: string) => ({
    errors: [
      {
        code: 'AccessDeniedHttpException',
        status: '403',
        detail: `This IP address (${ip}) does not have permission to access the API using these credentials.`,
      },
    ],
  });

  it('lets in addresses inside an IPv4 range and refuses the others with 403', async () => {
    const { key, bearer } = await userWithKey(['192.168.10.16/28', '10.0.0.7']);
    for (const ip of ['192.168.10.16', '192.168.10.31', '10.0.0.7', '::ffff:192.168.10.20']) {
      expect((await apiRequest(bearer, { url: '/api/client/account', ip })).statusCode, ip).toBe(200);
    }
    for (const ip of ['192.168.10.32', '10.0.0.8', '::1']) {
      const response = await apiRequest(bearer, { url: '/api/client/account', ip });
      expect(response.statusCode, ip).toBe(403);
      expect(response.json()).toEqual(denied(ip));
    }
    // A refused request does not count as a use of the key.
    const refusedOnly = await userWithKey(['10.0.0.7']);
    await apiRequest(refusedOnly.bearer, { url: '/api/client/account', ip: '10.0.0.9' });
    expect(await lastUsedAt(refusedOnly.key.identifier)).toBeNull();
    expect(await lastUsedAt(key.identifier)).not.toBeNull();
  });

  it('matches IPv6 ranges and IPv4-mapped entries', async () => {
    const { bearer } = await userWithKey(['2001:db8::/32', '::ffff:7f00:1']);
    for (const ip of ['2001:db8::1', '2001:db8:ffff::abcd', '127.0.0.1', '::ffff:127.0.0.1']) {
      expect((await apiRequest(bearer, { url: '/api/client/account', ip })).statusCode, ip).toBe(200);
    }
    for (const ip of ['2001:db9::1', '127.0.0.2']) {
      const response = await apiRequest(bearer, { url: '/api/client/account', ip });
      expect(response.statusCode, ip).toBe(403);
      expect(response.json()).toEqual(denied(ip));
    }
  });

  it('does not apply to the SPA’s session requests', async () => {
    const { user, password } = await userWithKey(['10.99.0.1']);
    const browser = new TestBrowser(t.app, '10.1.1.1');
    await browser.signIn(user.username, password);
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
  });
});
