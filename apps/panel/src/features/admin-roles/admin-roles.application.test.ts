import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import type { User } from '@aerie/panel/features/users/user';
import { accessDeniedJson, applicationRequest, createAdminWithKey } from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { adminRoleMessages } from '@aerie/shared/admin-roles/admin-roles-bodies';
import { applicationApiMessages } from '@aerie/shared/application-api/application-api-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
let rootBrowser: TestBrowser;
let root: User;
let node: NodeRow;
let server: ServerRow;
let sequence = 0;

beforeAll(async () => {
  t = await buildTestApp();
  const rootAdmin = await createTestUser(t.ctx, { rootAdmin: true });
  root = rootAdmin.user;
  rootBrowser = new TestBrowser(t.app);
  await rootBrowser.signIn(root.username, rootAdmin.password);
  node = await createTestNode(t.ctx);
  daemon = await startDaemonStandIn({
    token: t.ctx.secretBox.open(node.daemon_token),
    answer: () => undefined,
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', node.id)
    .execute();
  const { user: owner } = await createTestUser(t.ctx);
  server = await createTestServer(t.ctx, { owner, node, eggId: (await importDemoEgg(t.ctx)).id });
});
afterAll(async () => {
  await t.close();
  await daemon.close();
});

/** A root admin in the admin area (a session: roles are never managed with an application key). */
const asRoot = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: Record<string, unknown>,
) =>
  method === 'GET'
    ? rootBrowser.get(`/api/application/${url}`)
    : rootBrowser.send(method, `/api/application/${url}`, body);

const forbiddenWith = (detail: string) => ({
  errors: [{ code: 'AccessDeniedHttpException', status: '403', detail }],
});

async function newRole(permissions: string[]) {
  const response = await asRoot('POST', 'roles', { name: `Role ${++sequence}`, permissions });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().attributes as { id: number; name: string; permissions: string[] };
}

/** A user below root holding `roleId`, signed in to the admin area. */
async function staffWith(roleId: number) {
  const { user, password } = await createTestUser(t.ctx);
  expect((await asRoot('PUT', `users/${user.id}/role`, { role_id: roleId })).statusCode).toBe(204);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, browser };
}

const SUPPORT = ['servers.read', 'servers.write', 'users.read'];

describe('a support role: reads and suspends servers, nothing else', () => {
  it('lets the role do what it lists in the admin area and refuses the rest with 403', async () => {
    const role = await newRole(SUPPORT);
    const { browser } = await staffWith(role.id);
    expect((await browser.get('/api/application/servers')).statusCode).toBe(200);
    expect((await browser.get(`/api/application/servers/${server.id}`)).statusCode).toBe(200);
    expect((await browser.get('/api/application/users')).statusCode).toBe(200);
    expect((await browser.post(`/api/application/servers/${server.id}/suspend`)).statusCode).toBe(204);
    expect((await browser.post(`/api/application/servers/${server.id}/unsuspend`)).statusCode).toBe(204);
    for (const [method, url, body] of [
      ['GET', '/api/application/nodes'],
      ['GET', '/api/application/settings'],
      ['PATCH', '/api/application/settings', { 'app:name': 'Taken over' }],
      ['POST', '/api/application/nodes', {}],
      [
        'POST',
        '/api/application/users',
        { username: 'x', email: 'x@example.com', first_name: 'x', last_name: 'x' },
      ],
      ['GET', '/api/application/roles'],
      ['GET', '/api/application/audit-log'],
    ] as const) {
      const response = method === 'GET' ? await browser.get(url) : await browser.send(method, url, body);
      expect(response.json(), `${method} ${url}`).toEqual(accessDeniedJson);
    }
  });

  it('holds the same with the user’s account key, and an application key never holds more than its maker', async () => {
    const role = await newRole(SUPPORT);
    const { browser } = await staffWith(role.id);
    const made = await browser.post('/api/client/account/api-keys', {
      description: 'support',
      allowed_ips: [],
    });
    expect(made.statusCode, made.body).toBe(200);
    const accountKey = `${made.json().attributes.identifier}${made.json().meta.secret_token}`;
    expect((await applicationRequest(t.app, accountKey, 'GET', 'servers')).statusCode).toBe(200);
    expect((await applicationRequest(t.app, accountKey, 'GET', 'nodes')).json()).toEqual(accessDeniedJson);

    const tooMuch = await browser.post('/api/application/api-keys', { memo: 'all', r_nodes: 3 });
    expect(tooMuch.json()).toEqual(forbiddenWith(adminRoleMessages.beyondOwn));
    const readServers = await browser.post('/api/application/api-keys', {
      memo: 'read',
      r_servers: 1,
      r_users: 1,
    });
    expect(readServers.statusCode, readServers.body).toBe(201);
    const appKey = readServers.json().meta.secret_token as string;
    expect((await applicationRequest(t.app, appKey, 'GET', `servers/${server.id}`)).statusCode).toBe(200);
    expect(
      (await applicationRequest(t.app, appKey, 'POST', `servers/${server.id}/suspend`, [])).json(),
    ).toEqual(accessDeniedJson);

    // The maker loses users.read: the key made earlier loses it too, on the next request.
    await asRoot('PATCH', `roles/${role.id}`, {
      name: role.name,
      permissions: ['servers.read', 'servers.write'],
    });
    expect((await applicationRequest(t.app, appKey, 'GET', 'users')).json()).toEqual(accessDeniedJson);
    expect((await applicationRequest(t.app, appKey, 'GET', 'servers')).statusCode).toBe(200);
  });

  it('ends access at once when the role is taken away or deleted, mid-session', async () => {
    const role = await newRole(SUPPORT);
    const { user, browser } = await staffWith(role.id);
    expect((await browser.get('/api/application/servers')).statusCode).toBe(200);
    expect((await asRoot('PUT', `users/${user.id}/role`, { role_id: null })).statusCode).toBe(204);
    expect((await browser.get('/api/application/servers')).json()).toEqual(
      forbiddenWith(applicationApiMessages.notAdmin),
    );

    const second = await staffWith(role.id);
    expect((await second.browser.get('/api/application/servers')).statusCode).toBe(200);
    expect((await asRoot('DELETE', `roles/${role.id}`)).statusCode).toBe(204);
    expect((await second.browser.get('/api/application/servers')).statusCode).toBe(403);
    expect(
      (
        await t.db
          .selectFrom('users')
          .select('admin_role_id')
          .where('id', '=', second.user.id)
          .executeTakeFirstOrThrow()
      ).admin_role_id,
    ).toBeNull();
  });

  it('tells the page what the user may do in the admin area', async () => {
    const role = await newRole(SUPPORT);
    const { browser } = await staffWith(role.id);
    const page = (await browser.open('/')).body;
    expect(page).toContain('"admin_permissions":["servers.read","servers.write","users.read"]');
  });
});

describe('nobody below root hands out more than they hold', () => {
  it('refuses roles, role changes and user changes that reach further than the caller', async () => {
    const manager = await newRole(['users.read', 'users.write', 'roles.read', 'roles.write', 'servers.read']);
    const { user, browser } = await staffWith(manager.id);
    const wider = await browser.post('/api/application/roles', {
      name: 'Wider',
      permissions: ['nodes.write'],
    });
    expect(wider.json()).toEqual(forbiddenWith(adminRoleMessages.beyondOwn));
    const narrower = await browser.post('/api/application/roles', {
      name: `Narrow ${++sequence}`,
      permissions: ['servers.read'],
    });
    expect(narrower.statusCode, narrower.body).toBe(201);

    const { user: customer } = await createTestUser(t.ctx);
    const give = (roleId: number | null, userId = customer.id) =>
      browser.send('PUT', `/api/application/users/${userId}/role`, { role_id: roleId });
    expect((await give(narrower.json().attributes.id)).statusCode).toBe(204);
    const admins = await newRole(['nodes.read', 'nodes.write']);
    expect((await give(admins.id)).json()).toEqual(forbiddenWith(adminRoleMessages.beyondOwn));
    expect((await give(null, user.id)).json()).toEqual(forbiddenWith(adminRoleMessages.ownRole));
    expect((await give(null, root.id)).json()).toEqual(forbiddenWith(adminRoleMessages.rootOnly));

    const update = (id: number, body: Record<string, unknown>) =>
      browser.send('PATCH', `/api/application/users/${id}`, {
        username: `renamed${++sequence}`,
        email: `renamed${sequence}@example.com`,
        first_name: 'A',
        last_name: 'B',
        ...body,
      });
    expect((await update(root.id, {})).json()).toEqual(forbiddenWith(adminRoleMessages.rootOnly));
    expect((await update(customer.id, { root_admin: true })).json()).toEqual(
      forbiddenWith(adminRoleMessages.rootOnly),
    );
    expect((await update(customer.id, { password: 'a new password 1' })).statusCode).toBe(200);
    expect((await browser.send('DELETE', `/api/application/users/${root.id}`)).json()).toEqual(
      forbiddenWith(adminRoleMessages.rootOnly),
    );
    // Someone holding a wider role is out of reach too (their password would hand it over).
    const { user: nodeAdmin } = await createTestUser(t.ctx);
    await asRoot('PUT', `users/${nodeAdmin.id}/role`, { role_id: admins.id });
    expect((await update(nodeAdmin.id, { password: 'a new password 2' })).json()).toEqual(
      forbiddenWith(adminRoleMessages.beyondOwn),
    );
    expect(
      (
        await browser.send('PATCH', `/api/application/roles/${manager.id}`, {
          name: manager.name,
          permissions: [],
        })
      ).json(),
    ).toEqual(forbiddenWith(adminRoleMessages.ownRole));
  });
});

describe('/api/application/roles', () => {
  it('validates the body, keeps names unique, and is not for application keys', async () => {
    const { bearer } = await createAdminWithKey(t.ctx);
    expect((await applicationRequest(t.app, bearer, 'GET', 'roles')).json()).toEqual(
      forbiddenWith(applicationApiMessages.rolesNotByApplicationKey),
    );
    const invalid = await asRoot('POST', 'roles', { name: '', permissions: ['servers.fly'] });
    expect(invalid.statusCode).toBe(422);
    expect(
      invalid.json().errors.map((error: { meta: { source_field: string } }) => error.meta.source_field),
    ).toEqual(['name', 'permissions']);
    const role = await newRole(['servers.read', 'servers.read', 'audit_log.read']);
    expect(role.permissions).toEqual(['audit_log.read', 'servers.read']);
    const again = await asRoot('POST', 'roles', { name: role.name, permissions: [] });
    expect(again.json().errors[0].meta).toEqual({ source_field: 'name', rule: 'unique' });
    expect((await asRoot('GET', 'roles/999999')).statusCode).toBe(404);
    expect((await asRoot('POST', 'roles', { name: 'x', permissions: ['audit_log.write'] })).statusCode).toBe(
      422,
    );
  });

  it('records each change in the audit log exactly once, and a refused one not at all', async () => {
    const role = await newRole(SUPPORT);
    const { user } = await staffWith(role.id);
    await asRoot('PATCH', `roles/${role.id}`, { name: role.name, permissions: ['servers.read'] });
    const entries = await auditEntriesAbout(t.db, 'admin_role', role.id);
    expect(entries.map((entry) => entry.action)).toEqual(['admin_role.create', 'admin_role.update']);
    expect(entries[1]).toMatchObject({
      actorId: root.id,
      before: { permissions: SUPPORT },
      after: { permissions: ['servers.read'] },
    });
    expect(await auditEntriesAbout(t.db, 'user', user.id)).toEqual([
      expect.objectContaining({
        action: 'user.role',
        before: { id: user.id, username: user.username, admin_role_id: null },
        after: { id: user.id, username: user.username, admin_role_id: role.id },
      }),
    ]);
    const count = await auditEntryCount(t.db);
    expect((await asRoot('PUT', `users/${user.id}/role`, { role_id: 999999 })).statusCode).toBe(422);
    expect((await asRoot('PATCH', `roles/${role.id}`, { name: '', permissions: [] })).statusCode).toBe(422);
    expect(await auditEntryCount(t.db)).toBe(count);
  });
});

describe('roles under parallel requests', () => {
  it('gives one name to one role when five creates race, and records only that one', async () => {
    const name = `Raced ${++sequence}`;
    const count = await auditEntryCount(t.db);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => asRoot('POST', 'roles', { name, permissions: ['servers.read'] })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422, 422, 422, 422]);
    expect(await t.db.selectFrom('admin_roles').select('id').where('name', '=', name).execute()).toHaveLength(
      1,
    );
    expect(await auditEntryCount(t.db)).toBe(count + 1);
  });
});
