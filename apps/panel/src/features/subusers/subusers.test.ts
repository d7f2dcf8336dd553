import { daemonJti } from '@aerie/panel/features/console/daemon-jwt';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import { type Actor, serverScenarioWithDaemon, signedIn } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The Users page's API (reference §7.2 "Subusers", §10 CreateServerSubuserTest, UpdateSubuserTest,
 * DeleteSubuserTest): what is stored, who may grant what, and what the daemon is told. Against a daemon stand-in
 * that records the denials.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
/** A subuser who manages users and holds file.read and file.update, nothing else. */
let manager: Actor;
/** Daemon answers for `ws/deny`: 204 unless a test breaks it. */
let denyStatus = 204;

const MANAGER_PERMISSIONS = [
  'user.create',
  'user.read',
  'user.update',
  'user.delete',
  'file.read',
  'file.update',
  'websocket.connect',
];

const users = (server = s.server.uuid_short) => `/api/client/servers/${server}/users`;
const invite = (actor: Actor, body: unknown) => actor.browser.post(users(), body as Record<string, unknown>);
const update = (actor: Actor, uuid: string, body: unknown) =>
  actor.browser.post(`${users()}/${uuid}`, body as Record<string, unknown>);
const remove = (actor: Actor, uuid: string) => actor.browser.send('DELETE', `${users()}/${uuid}`);

const storedPermissions = async (userId: number) => {
  const row = await t.db
    .selectFrom('subusers')
    .select('permissions')
    .where('server_id', '=', s.server.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.permissions) as string[]) : undefined;
};
const denials = () => s.callsTo('ws/deny').map((call) => call.body);
const lastActivity = () =>
  t.db
    .selectFrom('activity_logs')
    .selectAll()
    .where('server_id', '=', s.server.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
const activityCount = async () =>
  (await t.db.selectFrom('activity_logs').select('id').where('server_id', '=', s.server.id).execute()).length;
const errorOf = (response: { json(): { errors: unknown[] } }) => response.json().errors[0];

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ['user.read'], (call) =>
    call.path.endsWith('/ws/deny') ? { status: denyStatus } : undefined,
  );
  manager = await signedIn(t);
  await addSubuser(t.ctx, s.server, manager.user, MANAGER_PERMISSIONS);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(() => {
  s.daemon.calls.length = 0;
  denyStatus = 204;
});

describe('GET /users', () => {
  it('lists the subusers in the order they were added, as server_subuser objects', async () => {
    const response = await s.owner.get(users());
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.object).toBe('list');
    const listed = body.data.map((item: { attributes: { uuid: string } }) => item.attributes.uuid);
    expect(listed.slice(0, 3)).toEqual([s.subuser.user.uuid, s.limited.user.uuid, manager.user.uuid]);
    expect(body.data[2]).toEqual({
      object: 'server_subuser',
      attributes: {
        uuid: manager.user.uuid,
        username: manager.user.username,
        email: manager.user.email,
        // No avatar service by default: the page draws initials.
        image: '',
        '2fa_enabled': false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        permissions: MANAGER_PERMISSIONS,
      },
    });
  });

  it('is there for a subuser holding user.read, and only them', async () => {
    expect((await s.subuser.get(users())).statusCode).toBe(200);
    expect(errorOf(await s.limited.get(users()))).toEqual({
      code: 'AccessDeniedHttpException',
      status: '403',
      detail: 'This action is unauthorized.',
    });
    expect((await s.stranger.get(users())).statusCode).toBe(404);
    expect((await s.admin.get(users())).statusCode).toBe(200);
  });
});

describe('POST /users', () => {
  it('adds an existing account with the permissions given and websocket.connect (CreateServerSubuserTest)', async () => {
    const { user } = await createTestUser(t.ctx);
    const response = await invite(s.owner, { email: user.email, permissions: ['user.create'] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'server_subuser',
      attributes: expect.objectContaining({
        uuid: user.uuid,
        email: user.email,
        permissions: ['user.create', 'websocket.connect'],
      }),
    });
    expect(await storedPermissions(user.id)).toEqual(['user.create', 'websocket.connect']);
    // No new account was made for it.
    const accounts = await t.db.selectFrom('users').select('id').where('email', '=', user.email).execute();
    expect(accounts).toHaveLength(1);
    const entry = await lastActivity();
    expect(entry).toMatchObject({
      event: 'server:subuser.create',
      actor_id: s.owner.user.id,
      subject_user_id: user.id,
    });
    expect(JSON.parse(entry.properties)).toEqual({
      email: user.email,
      permissions: ['user.create', 'websocket.connect'],
    });
  });

  it('finds the account whatever the case of the email sent', async () => {
    const { user } = await createTestUser(t.ctx);
    const response = await invite(s.owner, { email: user.email.toUpperCase(), permissions: ['file.read'] });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.uuid).toBe(user.uuid);
  });

  it('keeps only catalogue permissions, each once, in the order given, with websocket.connect last', async () => {
    const { user } = await createTestUser(t.ctx);
    const response = await invite(s.owner, {
      email: user.email,
      permissions: ['file.read', 'foo.bar', 'power.fake', 'file.read', 'control.console', '*'],
    });
    expect(response.json().attributes.permissions).toEqual([
      'file.read',
      'control.console',
      'websocket.connect',
    ]);
  });

  it('refuses the same user twice with ServerSubuserExistsException', async () => {
    const response = await invite(s.owner, { email: manager.user.email, permissions: ['file.read'] });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({
      code: 'ServerSubuserExistsException',
      status: '400',
      detail: 'A user with that email address is already assigned as a subuser for this server.',
    });
    expect(await storedPermissions(manager.user.id)).toEqual(MANAGER_PERMISSIONS);
  });

  it('refuses the owner, and anyone adding themselves', async () => {
    const owner = await invite(s.owner, { email: s.owner.user.email, permissions: ['file.read'] });
    expect(owner.statusCode).toBe(400);
    expect(errorOf(owner)).toEqual({
      code: 'UserIsServerOwnerException',
      status: '400',
      detail: 'You cannot add the server owner as a subuser for this server.',
    });
    // A subuser is one already; a root admin who is not one may not make themselves one.
    const self = await invite(manager, { email: manager.user.email, permissions: ['file.read'] });
    expect(errorOf(self)).toMatchObject({ code: 'ServerSubuserExistsException' });
    const admin = await invite(s.admin, { email: s.admin.user.email, permissions: ['file.read'] });
    expect(admin.statusCode).toBe(403);
    expect(await storedPermissions(s.admin.user.id)).toBeUndefined();
  });

  it('checks the fields as Laravel does, in rule order', async () => {
    const empty = await invite(s.owner, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.map((error: { meta: unknown }) => error.meta)).toEqual([
      { source_field: 'email', rule: 'required' },
      { source_field: 'permissions', rule: 'required' },
    ]);
    const invalid = await invite(s.owner, { email: 'not an email', permissions: [] });
    expect(invalid.json().errors.map((error: { detail: string }) => error.detail)).toEqual([
      'The email must be a valid email address.',
      'The permissions field is required.',
    ]);
    const notStrings = await invite(s.owner, { email: 'someone@example.com', permissions: ['file.read', 5] });
    expect(errorOf(notStrings)).toMatchObject({ meta: { source_field: 'permissions.1', rule: 'string' } });
  });

  it('takes a 191-character email and refuses a 192-character one with the reference’s text', async () => {
    const local = (length: number) => 'a'.repeat(length - '1@example.com'.length);
    const longest = `${local(191)}1@example.com`;
    expect(longest).toHaveLength(191);
    const ok = await invite(s.owner, { email: longest, permissions: ['file.read'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().attributes.email).toBe(longest);
    const tooLong = await invite(s.owner, { email: `k${longest}`, permissions: ['file.read'] });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The email must be between 1 and 191 characters.',
        meta: { source_field: 'email', rule: 'between' },
      },
    ]);
  });

  it('lets a subuser grant only permissions they hold (403 HttpForbiddenException), before the rules run', async () => {
    const { user } = await createTestUser(t.ctx);
    const beyond = await invite(manager, { email: user.email, permissions: ['file.read', 'file.delete'] });
    expect(beyond.statusCode).toBe(403);
    expect(errorOf(beyond)).toEqual({
      code: 'HttpForbiddenException',
      status: '403',
      detail: 'Cannot assign permissions to a subuser that your account does not actively possess.',
    });
    expect(await storedPermissions(user.id)).toBeUndefined();
    // The grant check comes before validation, as upstream authorises before it validates.
    const invalid = await invite(manager, { email: '', permissions: ['control.start'] });
    expect(invalid.statusCode).toBe(403);
    // A string they do not hold is refused even when it is no permission at all, as upstream's array_diff.
    const unknown = await invite(manager, {
      email: user.email,
      permissions: ['file.update', 'nope.nothing'],
    });
    expect(unknown.statusCode).toBe(403);
    expect(await storedPermissions(user.id)).toBeUndefined();
    // What they hold they may hand on.
    const held = await invite(manager, { email: user.email, permissions: ['file.update'] });
    expect(held.statusCode).toBe(200);
    expect(held.json().attributes.permissions).toEqual(['file.update', 'websocket.connect']);
  });

  it('needs user.create', async () => {
    const { user } = await createTestUser(t.ctx);
    const response = await invite(s.subuser, { email: user.email, permissions: ['file.read'] });
    expect(response.statusCode).toBe(403);
    expect((await invite(s.stranger, { email: user.email, permissions: ['file.read'] })).statusCode).toBe(
      404,
    );
  });
});

describe('POST /users/{uuid}', () => {
  it('replaces the permissions, cleaned like on create, and denies the user’s tokens (UpdateSubuserTest)', async () => {
    const { user } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, s.server, user, ['control.console', 'websocket.connect']);
    const response = await update(s.owner, user.uuid, {
      permissions: ['control.start', 'foo.bar', 'power.fake', 'control.start', 'file.read'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.permissions).toEqual([
      'control.start',
      'file.read',
      'websocket.connect',
    ]);
    expect(await storedPermissions(user.id)).toEqual(['control.start', 'file.read', 'websocket.connect']);
    expect(denials()).toEqual([{ jtis: [daemonJti(user.id, s.server.uuid)], user_uuids: [user.uuid] }]);
    const entry = await lastActivity();
    expect(entry.event).toBe('server:subuser.update');
    expect(JSON.parse(entry.properties)).toEqual({
      email: user.email,
      old: ['control.console', 'websocket.connect'],
      new: ['control.start', 'file.read', 'websocket.connect'],
      revoked: true,
    });
  });

  it('changes nothing, tells no daemon and logs nothing for the same permissions in another order', async () => {
    const { user } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, s.server, user, ['file.read', 'control.console', 'websocket.connect']);
    const before = await activityCount();
    const response = await update(s.owner, user.uuid, { permissions: ['control.console', 'file.read'] });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes.permissions).toEqual([
      'file.read',
      'control.console',
      'websocket.connect',
    ]);
    expect(denials()).toEqual([]);
    expect(await activityCount()).toBe(before);
  });

  it('lets a subuser grant only what they hold, and leaves the row unchanged when refused', async () => {
    const { user } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, s.server, user, ['file.read', 'websocket.connect']);
    const refused = await update(manager, user.uuid, { permissions: ['file.read', 'backup.create'] });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'HttpForbiddenException' });
    expect(await storedPermissions(user.id)).toEqual(['file.read', 'websocket.connect']);
    const allowed = await update(manager, user.uuid, { permissions: ['file.read', 'file.update'] });
    expect(allowed.statusCode).toBe(200);
  });

  it('refuses a user.read-only subuser (403), then lets them once given user.update', async () => {
    const { user } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, s.server, user, ['file.read', 'websocket.connect']);
    const reader = await signedIn(t);
    await addSubuser(t.ctx, s.server, reader.user, ['user.read', 'websocket.connect']);
    expect((await update(reader, user.uuid, { permissions: ['file.read'] })).statusCode).toBe(403);
    await t.db
      .updateTable('subusers')
      .set({ permissions: JSON.stringify(['user.read', 'user.update', 'file.read', 'websocket.connect']) })
      .where('user_id', '=', reader.user.id)
      .execute();
    expect((await update(reader, user.uuid, { permissions: ['file.read'] })).statusCode).toBe(200);
  });

  it('checks the permissions field', async () => {
    const response = await update(s.owner, manager.user.uuid, {});
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({ meta: { source_field: 'permissions', rule: 'required' } });
  });

  it('answers 401 to an unknown API key', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${users()}/${manager.user.uuid}`,
      headers: { accept: 'application/json', authorization: `Bearer ptlc_${'x'.repeat(43)}` },
      payload: { permissions: ['file.read'] },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('DELETE /users/{uuid}', () => {
  it('removes the subuser, denies their tokens, and the server is 404 to them from then on', async () => {
    const person = await signedIn(t);
    await addSubuser(t.ctx, s.server, person.user, ['control.console', 'websocket.connect']);
    expect((await person.get(`/api/client/servers/${s.server.uuid_short}`)).statusCode).toBe(200);
    const response = await remove(s.owner, person.user.uuid);
    expect(response.statusCode).toBe(204);
    expect(await storedPermissions(person.user.id)).toBeUndefined();
    expect(denials()).toEqual([
      { jtis: [daemonJti(person.user.id, s.server.uuid)], user_uuids: [person.user.uuid] },
    ]);
    expect((await person.get(`/api/client/servers/${s.server.uuid_short}`)).statusCode).toBe(404);
    const entry = await lastActivity();
    expect(entry).toMatchObject({ event: 'server:subuser.delete', subject_user_id: person.user.id });
    expect(JSON.parse(entry.properties)).toEqual({ email: person.user.email, revoked: true });
    expect((await remove(s.owner, person.user.uuid)).statusCode).toBe(404);
  });

  it('deletes the subuser named by the uuid, not a user whose id its digits spell (DeleteSubuserTest)', async () => {
    const [first, second] = [await createTestUser(t.ctx), await createTestUser(t.ctx)];
    await addSubuser(t.ctx, s.server, first.user, ['file.read', 'websocket.connect']);
    await addSubuser(t.ctx, s.server, second.user, ['file.read', 'websocket.connect']);
    // The second user's uuid starts with the first user's numeric id.
    const uuid = `${String(first.user.id).padEnd(8, '0')}-0000-4000-8000-${String(second.user.id).padStart(12, '0')}`;
    await t.db.updateTable('users').set({ uuid }).where('id', '=', second.user.id).execute();
    expect((await remove(s.owner, uuid)).statusCode).toBe(204);
    expect(await storedPermissions(second.user.id)).toBeUndefined();
    expect(await storedPermissions(first.user.id)).toEqual(['file.read', 'websocket.connect']);
  });

  it('still removes the subuser when the daemon cannot be told, and says so in the log', async () => {
    denyStatus = 500;
    const { user } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, s.server, user, ['file.read', 'websocket.connect']);
    expect((await remove(s.owner, user.uuid)).statusCode).toBe(204);
    expect(await storedPermissions(user.id)).toBeUndefined();
    expect(JSON.parse((await lastActivity()).properties)).toEqual({ email: user.email, revoked: false });
  });
});

describe('{uuid}', () => {
  it('answers 404 for a user who is not a subuser of this server, and for anything not a uuid', async () => {
    const elsewhere = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const { user } = await createTestUser(t.ctx);
    await addSubuser(t.ctx, elsewhere, user, ['file.read', 'websocket.connect']);
    for (const target of [user.uuid, s.owner.user.uuid, '1', `${manager.user.id}`, 'not-a-uuid']) {
      expect((await s.owner.get(`${users()}/${target}`)).statusCode, target).toBe(404);
      expect((await remove(s.owner, target)).statusCode, target).toBe(404);
    }
    expect(
      await t.db.selectFrom('subusers').select('id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(1);
  });

  it('is refused (403) on your own row, whatever you hold', async () => {
    const own = `${users()}/${manager.user.uuid}`;
    expect(errorOf(await manager.get(own))).toEqual({
      code: 'AccessDeniedHttpException',
      status: '403',
      detail: 'This action is unauthorized.',
    });
    expect((await update(manager, manager.user.uuid, { permissions: ['file.read'] })).statusCode).toBe(403);
    expect((await remove(manager, manager.user.uuid)).statusCode).toBe(403);
    expect(await storedPermissions(manager.user.id)).toEqual(MANAGER_PERMISSIONS);
    // Anyone else with the right permission sees the row.
    const row = await s.subuser.get(own);
    expect(row.statusCode).toBe(200);
    expect(row.json().attributes.permissions).toEqual(MANAGER_PERMISSIONS);
  });
});
