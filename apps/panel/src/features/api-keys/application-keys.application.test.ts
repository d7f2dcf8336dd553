import { applicationRequest, createAdminWithKey } from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The admin audit log of /api/application/api-keys (the routes themselves: surfaces/application.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const signedInAdmin = async () => {
  const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
  const browser = new TestBrowser(t.app, '198.51.100.9');
  await browser.signIn(user.username, password);
  return { user, browser };
};

describe('the admin audit log of application keys', () => {
  it("records a key's creation and deletion under its identifier, never its secret", async () => {
    const { user, browser } = await signedInAdmin();
    const created = await browser.post('/api/application/api-keys', {
      memo: 'audited',
      r_servers: 3,
      allowed_ips: ['192.0.2.0/24'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { attributes, meta } = created.json();
    expect(
      (await browser.send('DELETE', `/api/application/api-keys/${attributes.identifier}`)).statusCode,
    ).toBe(204);

    const { created_at: _createdAt, ...key } = attributes;
    const who = { actorId: user.id, actorName: user.username, apiKey: null, ip: '198.51.100.9' };
    const entries = await auditEntriesAbout(t.db, 'api_key', attributes.identifier);
    expect(entries).toEqual([
      { ...who, action: 'api_key.create', before: null, after: key, createdAt: expect.any(Date) },
      { ...who, action: 'api_key.delete', before: key, after: null, createdAt: expect.any(Date) },
    ]);
    expect(key).toMatchObject({ memo: 'audited', r_servers: 3, r_nodes: 0, allowed_ips: ['192.0.2.0/24'] });
    const stored = JSON.stringify(await t.db.selectFrom('admin_audit_log').selectAll().execute());
    expect(stored).not.toContain(meta.secret_token.slice(attributes.identifier.length));
  });

  it("names the account key a change was made with (an admin's account key)", async () => {
    const { user } = await signedInAdmin();
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'account', allowedIps: [] });
    const created = await applicationRequest(t.app, key.identifier + secret, 'POST', 'api-keys', {
      memo: 'x',
    });
    expect(created.statusCode).toBe(201);
    const [entry] = await auditEntriesAbout(t.db, 'api_key', created.json().attributes.identifier);
    expect(entry).toMatchObject({ action: 'api_key.create', actorId: user.id, apiKey: key.identifier });
  });

  it('records nothing for a creation or deletion that is refused', async () => {
    const { browser } = await signedInAdmin();
    const other = await createAdminWithKey(t.ctx);
    const [othersKey] = await t.ctx.apiKeys.listApplicationKeys(other.admin);
    const before = await auditEntryCount(t.db);
    const invalid = await browser.post('/api/application/api-keys', { memo: 'x', r_nodes: 4 });
    expect(invalid.statusCode).toBe(422);
    expect((await browser.send('DELETE', '/api/application/api-keys/ptla_unknown000')).statusCode).toBe(404);
    expect(
      (await browser.send('DELETE', `/api/application/api-keys/${othersKey?.identifier}`)).statusCode,
    ).toBe(404);
    expect(await auditEntryCount(t.db)).toBe(before);
    expect(await t.ctx.apiKeys.listApplicationKeys(other.admin)).toHaveLength(1);
  });
});
