import {
  accessDeniedJson,
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { API_APPLICATION_RATELIMIT: '30' } });
});
afterAll(() => t.close());

const notAdmin = {
  errors: [
    {
      code: 'AccessDeniedHttpException',
      status: '403',
      detail: 'This account does not have permission to access the API.',
    },
  ],
};

describe('/api/application: who may call it (reference §1)', () => {
  it('answers 401 without credentials or with a wrong secret', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/application/locations' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().errors[0].code).toBe('AuthenticationException');
    const { bearer } = await createAdminWithKey(t.ctx);
    const wrong = await applicationRequest(
      t.app,
      `${bearer.slice(0, 16)}${'x'.repeat(32)}`,
      'GET',
      'locations',
    );
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses a non-admin, whatever the credential, with the reference text', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'client key', allowedIps: [] });
    const byClientKey = await applicationRequest(t.app, key.identifier + secret, 'GET', 'locations');
    expect(byClientKey.statusCode).toBe(403);
    expect(byClientKey.json()).toEqual(notAdmin);

    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const bySession = await browser.get('/api/application/locations');
    expect(bySession.statusCode).toBe(403);
    expect(bySession.json()).toEqual(notAdmin);
  });

  it('stops an application key the moment its owner is no longer a root admin', async () => {
    const { admin, bearer } = await createAdminWithKey(t.ctx);
    expect((await applicationRequest(t.app, bearer, 'GET', 'locations')).statusCode).toBe(200);
    await t.db.updateTable('users').set({ root_admin: false }).where('id', '=', admin.id).execute();
    const after = await applicationRequest(t.app, bearer, 'GET', 'locations');
    expect(after.statusCode).toBe(403);
    expect(after.json()).toEqual(notAdmin);
  });

  it("lets a root admin's session (with CSRF) and account key pass every resource", async () => {
    const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const created = await browser.post('/api/application/locations', { short: `s-${user.id}` });
    expect(created.statusCode).toBe(201);
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'client key', allowedIps: [] });
    const byClientKey = await applicationRequest(t.app, key.identifier + secret, 'GET', 'locations');
    expect(byClientKey.statusCode).toBe(200);
  });

  it('refuses a session write without the CSRF token (419) and changes nothing', async () => {
    const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const response = await browser.post('/api/application/locations', { short: 'no-csrf' }, { csrf: false });
    expect(response.statusCode).toBe(419);
    expect(await t.db.selectFrom('locations').select('id').where('short', '=', 'no-csrf').execute()).toEqual(
      [],
    );
  });

  it('checks the key bits per method, bitwise: 1 reads, 2 writes but cannot read', async () => {
    const { user } = await createTestUser(t.ctx, { rootAdmin: true });
    const none = await createApplicationBearer(t.ctx, user, { locations: 0 });
    const read = await createApplicationBearer(t.ctx, user, { locations: 1 });
    const write = await createApplicationBearer(t.ctx, user, { locations: 2 });
    expect((await applicationRequest(t.app, none, 'GET', 'locations')).json()).toEqual(accessDeniedJson);
    expect((await applicationRequest(t.app, read, 'GET', 'locations')).statusCode).toBe(200);
    // Authorisation before validation: an empty body still answers 403.
    const readWrites = await applicationRequest(t.app, read, 'POST', 'locations', {});
    expect(readWrites.statusCode).toBe(403);
    expect(readWrites.json()).toEqual(accessDeniedJson);
    expect((await applicationRequest(t.app, write, 'GET', 'locations')).statusCode).toBe(403);
    expect(
      (await applicationRequest(t.app, write, 'POST', 'locations', { short: `w${user.id}` })).statusCode,
    ).toBe(201);
  });

  it("applies the key's IP allow-list", async () => {
    const { user } = await createTestUser(t.ctx, { rootAdmin: true });
    const bearer = await createApplicationBearer(t.ctx, user, {}, ['10.1.0.0/16']);
    expect(
      (await applicationRequest(t.app, bearer, 'GET', 'locations', undefined, { ip: '10.1.2.3' })).statusCode,
    ).toBe(200);
    const refused = await applicationRequest(t.app, bearer, 'GET', 'locations', undefined, {
      ip: '10.2.0.1',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].detail).toBe(
      'This IP address (10.2.0.1) does not have permission to access the API using these credentials.',
    );
  });

  it('refuses application keys of an admin without 2FA when the panel requires it of admins', async () => {
    const { admin, bearer } = await createAdminWithKey(t.ctx);
    await t.ctx.settings.set('2fa_required', '1');
    try {
      const refused = await applicationRequest(t.app, bearer, 'GET', 'locations');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0].code).toBe('TwoFactorAuthRequiredException');
      await enableTwoFactor(t.ctx, admin);
      expect((await applicationRequest(t.app, bearer, 'GET', 'locations')).statusCode).toBe(200);
    } finally {
      await t.ctx.settings.set('2fa_required', '0');
    }
  });

  it('refuses an application key on /api/client with the reference text', async () => {
    const { bearer } = await createAdminWithKey(t.ctx);
    const response = await applicationRequest(t.app, bearer, 'GET', '/api/client/account');
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].detail).toBe(
      'You are attempting to use an application API key on an endpoint that requires a client API key.',
    );
  });

  it('limits each admin to API_APPLICATION_RATELIMIT requests a minute, all their keys together', async () => {
    const { admin, bearer } = await createAdminWithKey(t.ctx);
    const second = await createApplicationBearer(t.ctx, admin);
    const answers = await Promise.all(
      Array.from({ length: 31 }, (_, index) =>
        applicationRequest(t.app, index % 2 === 0 ? bearer : second, 'GET', 'locations'),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    const limited = answers.find((answer) => answer.statusCode === 429);
    expect(limited?.headers['retry-after']).toBeDefined();
    expect(limited?.json().errors[0].code).toBe('TooManyRequestsHttpException');
    // Another admin has a budget of their own.
    const other = await createAdminWithKey(t.ctx);
    expect((await applicationRequest(t.app, other.bearer, 'GET', 'locations')).statusCode).toBe(200);
  });
});

describe('/api/application/api-keys', () => {
  it('creates, lists and revokes application keys; the secret shows once; the key works at once', async () => {
    const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    const created = await browser.post('/api/application/api-keys', {
      memo: 'billing',
      r_servers: 3,
      r_users: '1',
      allowed_ips: ['192.0.2.0/24'],
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.attributes).toMatchObject({ memo: 'billing', r_servers: 3, r_users: 1, r_nodes: 0 });
    expect(body.attributes.identifier).toMatch(/^ptla_[A-Za-z0-9]{11}$/);
    expect(body.meta.secret_token).toMatch(/^ptla_[A-Za-z0-9]{43}$/);
    const listed = await browser.get('/api/application/api-keys');
    expect(
      listed.json().data.map((item: { attributes: { identifier: string } }) => item.attributes.identifier),
    ).toEqual([body.attributes.identifier]);
    expect(JSON.stringify(listed.json())).not.toContain(body.meta.secret_token.slice(16));
    const used = await applicationRequest(t.app, body.meta.secret_token, 'GET', 'users', undefined, {
      ip: '192.0.2.7',
    });
    expect(used.statusCode).not.toBe(401);
    const revoked = await browser.send('DELETE', `/api/application/api-keys/${body.attributes.identifier}`);
    expect(revoked.statusCode).toBe(204);
    const after = await applicationRequest(t.app, body.meta.secret_token, 'GET', 'locations', undefined, {
      ip: '192.0.2.7',
    });
    expect(after.statusCode).toBe(401);
  });

  it('refuses bad bits with 422 and creates nothing', async () => {
    const { user } = await createTestUser(t.ctx, { rootAdmin: true });
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'client key', allowedIps: [] });
    const response = await applicationRequest(t.app, key.identifier + secret, 'POST', 'api-keys', {
      memo: 'x',
      r_nodes: 4,
      allowed_ips: ['not-an-ip'],
    });
    expect(response.statusCode).toBe(422);
    expect(
      response.json().errors.map((e: { meta: { source_field: string } }) => e.meta.source_field),
    ).toEqual(['r_nodes', 'allowed_ips.0']);
    expect(await t.ctx.apiKeys.listApplicationKeys(user)).toEqual([]);
  });

  it('cannot be reached with an application key, so a key never mints a stronger one', async () => {
    const { bearer } = await createAdminWithKey(t.ctx);
    const response = await applicationRequest(t.app, bearer, 'POST', 'api-keys', {
      memo: 'escalate',
      r_users: 3,
    });
    expect(response.statusCode).toBe(403);
  });

  it("revokes only the admin's own keys (404 for another admin's)", async () => {
    const first = await createAdminWithKey(t.ctx);
    const second = await createTestUser(t.ctx, { rootAdmin: true });
    const [key] = await t.ctx.apiKeys.listApplicationKeys(first.admin);
    const { key: clientKey, secret } = await t.ctx.apiKeys.create(second.user, {
      description: 'c',
      allowedIps: [],
    });
    const response = await applicationRequest(
      t.app,
      clientKey.identifier + secret,
      'DELETE',
      `api-keys/${key?.identifier}`,
    );
    expect(response.statusCode).toBe(404);
    expect(await t.ctx.apiKeys.listApplicationKeys(first.admin)).toHaveLength(1);
  });
});
