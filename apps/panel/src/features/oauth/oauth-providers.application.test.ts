import type { User } from '@aerie/panel/features/users/user';
import { applicationRequest, createApplicationBearer } from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { adminPermissions } from '@aerie/shared/admin-roles/admin-permissions';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let root: User;
let rootBrowser: TestBrowser;
let sequence = 0;

beforeAll(async () => {
  t = await buildTestApp({ env: { AERIE_OUTBOUND_ALLOW: '127.0.0.1/32' } });
  const admin = await createTestUser(t.ctx, { rootAdmin: true });
  root = admin.user;
  rootBrowser = new TestBrowser(t.app);
  await rootBrowser.signIn(root.username, admin.password);
});
afterAll(() => t.close());

const asRoot = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: Record<string, unknown>) =>
  method === 'GET'
    ? rootBrowser.get(`/api/application/${url}`)
    : rootBrowser.send(method, `/api/application/${url}`, body);

const oidcBody = (overrides: Record<string, unknown> = {}) => ({
  slug: `corp-${++sequence}`,
  name: 'Corp SSO',
  kind: 'oidc',
  issuer: 'https://id.example.com',
  client_id: 'aerie',
  client_secret: 'very-secret-value',
  ...overrides,
});

const forbiddenWith = (detail: string) => ({
  errors: [{ code: 'AccessDeniedHttpException', status: '403', detail }],
});

describe('/api/application/oauth-providers', () => {
  it('lets a root admin create, read, change and delete a provider, never showing the secret', async () => {
    const created = await asRoot(
      'POST',
      'oauth-providers',
      oidcBody({ email_domains: ['Example.COM', '@example.com'], create_accounts: true }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('very-secret-value');
    const attributes = created.json().attributes;
    expect(created.json().object).toBe('oauth_provider');
    expect(attributes).toMatchObject({
      name: 'Corp SSO',
      kind: 'oidc',
      issuer: 'https://id.example.com',
      client_id: 'aerie',
      client_secret_set: true,
      scopes: [],
      enabled: true,
      create_accounts: true,
      email_domains: ['example.com'],
      allow_two_factor_accounts: false,
      redirect_uri: `http://panel.test/auth/oauth/${attributes.slug}/callback`,
    });
    expect(attributes).not.toHaveProperty('client_secret');
    const stored = await t.db
      .selectFrom('oauth_providers')
      .select('client_secret')
      .where('id', '=', attributes.id)
      .executeTakeFirstOrThrow();
    expect(stored.client_secret).not.toContain('very-secret-value');
    expect(t.ctx.secretBox.open(stored.client_secret)).toBe('very-secret-value');

    const list = await asRoot('GET', 'oauth-providers');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((item: { attributes: { id: number } }) => item.attributes.id)).toContain(
      attributes.id,
    );
    expect((await asRoot('GET', `oauth-providers/${attributes.id}`)).json().attributes.slug).toBe(
      attributes.slug,
    );

    const patched = await asRoot('PATCH', `oauth-providers/${attributes.id}`, {
      name: 'Corporate',
      enabled: false,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().attributes).toMatchObject({
      name: 'Corporate',
      enabled: false,
      client_secret_set: true,
    });
    const afterPatch = await t.db
      .selectFrom('oauth_providers')
      .select('client_secret')
      .where('id', '=', attributes.id)
      .executeTakeFirstOrThrow();
    expect(t.ctx.secretBox.open(afterPatch.client_secret)).toBe('very-secret-value');

    expect((await asRoot('DELETE', `oauth-providers/${attributes.id}`)).statusCode).toBe(204);
    expect((await asRoot('GET', `oauth-providers/${attributes.id}`)).statusCode).toBe(404);

    const entries = await auditEntriesAbout(t.db, 'oauth_provider', attributes.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      'oauth_provider.create',
      'oauth_provider.update',
      'oauth_provider.delete',
    ]);
    expect(entries[0]?.after).toMatchObject({ client_secret: '[redacted]', client_secret_set: true });
    expect(JSON.stringify(entries)).not.toContain('very-secret-value');
    expect(entries[1]?.before).toMatchObject({ name: 'Corp SSO' });
    expect(entries[1]?.after).toMatchObject({ name: 'Corporate' });
    expect(entries[1]?.after).not.toHaveProperty('client_secret');
  });

  it('records a new secret as redacted and keeps it sealed', async () => {
    const id = (await asRoot('POST', 'oauth-providers', oidcBody())).json().attributes.id;
    const patched = await asRoot('PATCH', `oauth-providers/${id}`, { client_secret: 'the-next-secret' });
    expect(patched.statusCode).toBe(200);
    expect(patched.body).not.toContain('the-next-secret');
    const [, update] = await auditEntriesAbout(t.db, 'oauth_provider', id);
    expect(update?.after).toMatchObject({ client_secret: '[redacted]' });
  });

  it('takes the presets without an issuer, with their default scopes', async () => {
    const created = await asRoot('POST', 'oauth-providers', {
      ...oidcBody({ kind: 'github', issuer: 'https://ignored.example.com' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().attributes).toMatchObject({ kind: 'github', issuer: null, scopes: [] });
  });

  it('refuses an issuer that is missing, not http(s), private, or plain http to a host nobody opened', async () => {
    const before = await auditEntryCount(t.db);
    for (const issuer of [
      null,
      'ftp://id.example.com',
      'not a url',
      'https://10.0.0.5',
      'https://169.254.169.254/latest',
      'https://localhost:8443',
      'https://[::1]',
      'http://id.example.com',
    ]) {
      const response = await asRoot('POST', 'oauth-providers', oidcBody({ issuer }));
      expect(response.statusCode, `${issuer}: ${response.body}`).toBe(422);
      expect(response.json().errors[0].meta.source_field).toBe('issuer');
    }
    expect(
      (await asRoot('POST', 'oauth-providers', oidcBody({ issuer: 'https://10.0.0.5' }))).json().errors[0]
        .detail,
    ).toBe(oauthMessages.issuerNotAllowed);
    // AERIE_OUTBOUND_ALLOW opens loopback here, plain http included.
    expect(
      (await asRoot('POST', 'oauth-providers', oidcBody({ issuer: 'http://127.0.0.1:9' }))).statusCode,
    ).toBe(201);
    expect(await auditEntryCount(t.db)).toBe(before + 1);
  });

  it('refuses a taken slug, a bad slug and missing fields with 422', async () => {
    const body = oidcBody();
    expect((await asRoot('POST', 'oauth-providers', body)).statusCode).toBe(201);
    const taken = await asRoot('POST', 'oauth-providers', body);
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0].meta).toEqual({ source_field: 'slug', rule: 'unique' });
    const bad = await asRoot('POST', 'oauth-providers', oidcBody({ slug: 'Has Spaces!' }));
    expect(bad.json().errors[0].meta).toEqual({ source_field: 'slug', rule: 'regex' });
    const missing = await asRoot('POST', 'oauth-providers', { kind: 'oidc' });
    expect(missing.statusCode).toBe(422);
    expect(
      missing.json().errors.map((error: { meta: { source_field: string } }) => error.meta.source_field),
    ).toEqual(expect.arrayContaining(['slug', 'name', 'client_id', 'client_secret']));
  });

  it('is for root admins only: a role holding every permission is refused', async () => {
    const role = await t.ctx.adminRoles.create(
      { name: `Everything ${++sequence}`, description: null, permissions: [...adminPermissions] },
      'root',
      Object.assign(async () => 0, { withdraw: async () => {}, nothingChanged: () => {} }),
    );
    const { user, password } = await createTestUser(t.ctx);
    await t.db.updateTable('users').set({ admin_role_id: role.id }).where('id', '=', user.id).execute();
    const staff = new TestBrowser(t.app);
    await staff.signIn(user.username, password);
    expect((await staff.get('/api/application/roles')).statusCode).toBe(200);
    const list = await staff.get('/api/application/oauth-providers');
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual(forbiddenWith('This action is unauthorized.'));
    expect((await staff.post('/api/application/oauth-providers', oidcBody())).statusCode).toBe(403);
  });

  it("refuses an application key, even a root admin's", async () => {
    const bearer = await createApplicationBearer(t.ctx, root);
    const list = await applicationRequest(t.app, bearer, 'GET', 'oauth-providers');
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual(forbiddenWith(oauthMessages.notByApplicationKey));
    const before = await auditEntryCount(t.db);
    expect((await applicationRequest(t.app, bearer, 'POST', 'oauth-providers', oidcBody())).statusCode).toBe(
      403,
    );
    expect(await auditEntryCount(t.db)).toBe(before);
  });

  it('lists itself in the API documentation', async () => {
    const response = await rootBrowser.get('/api/docs/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/api/application/oauth-providers');
    expect(response.body).toContain('/api/client/account/oauth');
  });
});
