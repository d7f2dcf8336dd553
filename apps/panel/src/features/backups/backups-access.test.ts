import { createTestBackup } from '@aerie/panel/test/backup-factories';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  expectForbiddenThenHidden,
  serverScenarioWithDaemon,
  setServerState,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * Who may use the backup routes (reference §10 BackupAuthorizationTest, §2.4): owner, root admin and a subuser
 * holding the route's permission get through; a subuser without it 403; a stranger, and a subuser of another
 * server, 404; another server's (or a deleted) backup 404 to everyone, before any other check; every state
 * conflict 409 (before the permission).
 */

const ALL = [
  'backup.read',
  'backup.create',
  'backup.download',
  'backup.restore',
  'backup.delete',
  'websocket.connect',
];

const routes = [
  { name: 'GET /backups', method: 'GET', path: '', permission: 'backup.read', ok: 200 },
  {
    name: 'POST /backups',
    method: 'POST',
    path: '',
    body: { name: 'B' },
    permission: 'backup.create',
    ok: 200,
  },
  { name: 'GET /backups/{b}', method: 'GET', path: '/{b}', permission: 'backup.read', ok: 200 },
  {
    name: 'GET /backups/{b}/download',
    method: 'GET',
    path: '/{b}/download',
    permission: 'backup.download',
    ok: 200,
  },
  { name: 'POST /backups/{b}/lock', method: 'POST', path: '/{b}/lock', permission: 'backup.delete', ok: 200 },
  {
    name: 'POST /backups/{b}/restore',
    method: 'POST',
    path: '/{b}/restore',
    body: { truncate: false },
    permission: 'backup.restore',
    ok: 204,
  },
  { name: 'DELETE /backups/{b}', method: 'DELETE', path: '/{b}', permission: 'backup.delete', ok: 204 },
] as const;
type Route = (typeof routes)[number];

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
const allBut = new Map<string, Actor>();
let outsider: Actor;
let otherServer: { id: number };
let target: string;
let foreign: string;

function send(actor: Actor, route: Route, backup = target) {
  const url = `/api/client/servers/${s.server.uuid_short}/backups${route.path.replace('{b}', backup)}`;
  if (route.method === 'GET') return actor.get(url);
  if (route.method === 'DELETE') return actor.browser.send('DELETE', url);
  return actor.browser.post(url, 'body' in route ? { ...route.body } : undefined);
}

/** Puts things back after a route that deleted the backup, started one or a restore. */
async function reset() {
  await setServerState(t, s.server, s.node, {});
  await t.db.deleteFrom('backups').where('server_id', '=', s.server.id).execute();
  target = (await createTestBackup(t.ctx, s.server)).uuid;
}

beforeAll(async () => {
  // No throttle here: the matrix starts many backups in a row (its own tests are in backups.test.ts).
  t = await buildTestApp({ env: { BACKUP_THROTTLE_PERIOD: '0' } });
  s = await serverScenarioWithDaemon(t, ALL);
  await t.db.updateTable('servers').set({ backup_limit: 100 }).where('id', '=', s.server.id).execute();
  for (const route of routes) {
    if (allBut.has(route.permission)) continue;
    const actor = await signedIn(t);
    await addSubuser(
      t.ctx,
      s.server,
      actor.user,
      ALL.filter((permission) => permission !== route.permission),
    );
    allBut.set(route.permission, actor);
  }
  outsider = await signedIn(t);
  otherServer = await createTestServer(t.ctx, {
    owner: s.owner.user,
    node: s.node,
    eggId: s.egg.id,
    backupLimit: 100,
  });
  await addSubuser(t.ctx, otherServer as never, outsider.user, ALL);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  await reset();
  foreign = (await createTestBackup(t.ctx, otherServer)).uuid;
});

describe.each(routes)('$name', (route) => {
  it('lets the owner, a root admin and a subuser holding the permission through', async () => {
    for (const actor of [s.owner, s.admin, s.subuser]) {
      const response = await send(actor, route);
      expect(response.statusCode, response.body).toBe(route.ok);
      await reset();
    }
  });

  it(`answers 403 to a subuser without ${route.permission}, 404 to a stranger and another server's subuser`, async () => {
    await expectForbiddenThenHidden((actor) => send(actor, route), {
      without: allBut.get(route.permission) as Actor,
      limited: s.limited,
      strangers: [s.stranger, outsider],
    });
  });

  it.each(conflictStates)('answers 409 while the server is %o', async (state, detail) => {
    await expectConflictForEach(t, s, [state, detail], [s.owner, s.subuser], (actor) => send(actor, route));
  });
});

describe.each(routes.filter((route) => route.path.includes('{b}')))('$name, on another backup', (route) => {
  it('answers 404 for another server’s, a deleted or an unknown backup to everyone, before the permission and the state', async () => {
    const deleted = (await createTestBackup(t.ctx, s.server, { deletedAt: new Date() })).uuid;
    for (const backup of [foreign, deleted, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const actor of [s.owner, s.admin, s.limited, allBut.get(route.permission) as Actor, s.stranger]) {
        const response = await send(actor, route, backup);
        expect(response.statusCode).toBe(404);
      }
    }
    await setServerState(t, s.server, s.node, { status: 'suspended' });
    try {
      expect((await send(s.owner, route, foreign)).statusCode).toBe(404);
    } finally {
      await setServerState(t, s.server, s.node, {});
    }
    // Nothing happened to the other server's backup.
    const row = await t.db
      .selectFrom('backups')
      .selectAll()
      .where('uuid', '=', foreign)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });
});
