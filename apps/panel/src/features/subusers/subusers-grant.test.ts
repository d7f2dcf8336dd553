import type { User } from '@aerie/panel/features/users/user';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { addSubuser } from '@aerie/panel/test/server-factories';
import { type Actor, serverScenarioWithDaemon, signedIn } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The grant check weighs the permissions as they will be stored: a subuser holding `user.create` and
 * `user.update` but not `file.delete` cannot get `file.delete` (or anything else they lack) into a row by
 * spelling it another way. Every spelling below is refused (403, or 422 when it fails the rules), and nothing
 * is stored; on both routes that take permissions.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
/** Manages users, holds file.read and nothing else of the files. */
let manager: Actor;

const HELD = ['user.create', 'user.read', 'user.update', 'file.read', 'websocket.connect'];
const BEFORE = ['file.read', 'websocket.connect'];

/** Spellings of permissions the manager does not hold: each must be refused with this status. */
const refused: [string, unknown[], 403 | 422][] = [
  ['padded before', [' file.delete'], 403],
  ['padded after', ['file.delete '], 403],
  ['padded with tabs and newlines', ['\tfile.delete\n'], 403],
  ['padded next to a held one', ['file.read', '  file.delete  '], 403],
  ['upper case', ['FILE.DELETE'], 403],
  ['mixed case', ['File.Delete'], 403],
  ['case-varied and held', ['File.Read'], 403],
  ['unknown', ['nope.nothing'], 403],
  ['a category wildcard', ['file.*'], 403],
  ['the wildcard', ['*'], 403],
  ['duplicated', ['file.delete', 'file.delete'], 403],
  ['duplicated, once padded', ['file.read', ' file.read', ' file.delete'], 403],
  ['blank', ['   '], 422],
  ['not a string', [5], 422],
  ['an array inside', [['file.delete']], 422],
];

let users: string;
const storedPermissions = async (user: User) => {
  const row = await t.db
    .selectFrom('subusers')
    .select('permissions')
    .where('server_id', '=', s.server.id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return row ? (JSON.parse(row.permissions) as string[]) : undefined;
};

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ['user.read']);
  users = `/api/client/servers/${s.server.uuid_short}/users`;
  manager = await signedIn(t);
  await addSubuser(t.ctx, s.server, manager.user, HELD);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});

/** Each route that takes permissions: how to send them, and what is stored for the target afterwards. */
const routes = [
  {
    name: 'POST /users',
    target: async () => (await createTestUser(t.ctx)).user,
    send: (actor: Actor, target: User, permissions: unknown[]) =>
      actor.browser.post(users, { email: target.email, permissions }),
    untouched: undefined,
  },
  {
    name: 'POST /users/{uuid}',
    target: async () => {
      const { user } = await createTestUser(t.ctx);
      await addSubuser(t.ctx, s.server, user, BEFORE);
      return user;
    },
    send: (actor: Actor, target: User, permissions: unknown[]) =>
      actor.browser.post(`${users}/${target.uuid}`, { permissions }),
    untouched: BEFORE,
  },
];

describe.each(routes)('$name', (route) => {
  it.each(refused)(
    'refuses a subuser’s %s permissions and stores nothing',
    async (_name, permissions, status) => {
      const target = await route.target();
      const response = await route.send(manager, target, permissions);
      expect(response.statusCode, response.body).toBe(status);
      if (status === 403) {
        expect(response.json().errors).toEqual([
          {
            code: 'HttpForbiddenException',
            status: '403',
            detail: 'Cannot assign permissions to a subuser that your account does not actively possess.',
          },
        ]);
      } else {
        expect(response.json().errors[0]).toMatchObject({ code: 'ValidationException' });
      }
      expect(await storedPermissions(target)).toEqual(route.untouched);
    },
  );

  it('lets a subuser hand on what they hold, however padded or repeated, stored trimmed and once', async () => {
    const target = await route.target();
    const response = await route.send(manager, target, [' file.read', 'file.read ', 'user.read']);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().attributes.permissions).toEqual(['file.read', 'user.read', 'websocket.connect']);
    expect(await storedPermissions(target)).toEqual(['file.read', 'user.read', 'websocket.connect']);
  });

  it('stores a padded permission trimmed for the owner, and drops what is not in the catalogue', async () => {
    const target = await route.target();
    const response = await route.send(s.owner, target, [
      ' file.delete',
      'FILE.DELETE',
      'file.*',
      'nope.nothing',
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedPermissions(target)).toEqual(['file.delete', 'websocket.connect']);
  });
});

describe('POST /users, the order of its checks', () => {
  it('refuses a padded permission the caller lacks before the email’s rules, as upstream authorises first', async () => {
    const response = await manager.browser.post(users, { email: '', permissions: [' file.delete'] });
    expect(response.statusCode).toBe(403);
  });
});
