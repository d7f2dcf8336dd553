import type { User } from '@aerie/panel/features/users/user';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  expectForbiddenThenHidden,
  serverScenarioWithDaemon,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * Who may use the subuser routes (reference §10 SubuserAuthorizationTest, §2.4): owner, root admin and a subuser
 * holding the route's permission get through; a subuser without it 403; a stranger, and a subuser of another
 * server, 404; every state conflict 409 (checked before the permission).
 */

const ALL = ['user.create', 'user.read', 'user.update', 'user.delete', 'file.read', 'websocket.connect'];

/** Each route with a request that succeeds for someone allowed. */
const routes = [
  { name: 'GET /users', method: 'GET', target: false, permission: 'user.read', ok: 200 },
  { name: 'POST /users', method: 'POST', target: false, permission: 'user.create', ok: 200 },
  { name: 'GET /users/{uuid}', method: 'GET', target: true, permission: 'user.read', ok: 200 },
  { name: 'POST /users/{uuid}', method: 'POST', target: true, permission: 'user.update', ok: 200 },
  { name: 'DELETE /users/{uuid}', method: 'DELETE', target: true, permission: 'user.delete', ok: 204 },
] as const;
type Route = (typeof routes)[number];

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
/** Per permission, a subuser holding every user permission but that one. */
const allBut = new Map<string, Actor>();
/** A subuser with every user permission on another server only. */
let outsider: Actor;
/** Who the `{uuid}` routes act on: made again before each test (DELETE removes them). */
let target: User;
let invited = 0;

function send(actor: Actor, route: Route) {
  const base = `/api/client/servers/${s.server.uuid_short}/users`;
  const url = route.target ? `${base}/${target.uuid}` : base;
  if (route.method === 'GET') return actor.get(url);
  if (route.method === 'DELETE') return actor.browser.send('DELETE', url);
  const body = route.target
    ? { permissions: ['file.read', invited++ % 2 ? 'user.read' : 'user.create'] }
    : { email: `invited-${invited++}@example.com`, permissions: ['file.read'] };
  return actor.browser.post(url, body);
}

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ALL);
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
  const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
  await addSubuser(t.ctx, other, outsider.user, ALL);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  target = (await createTestUser(t.ctx)).user;
  await addSubuser(t.ctx, s.server, target, ['file.read', 'websocket.connect']);
});

describe.each(routes)('$name', (route) => {
  it('lets the owner, a root admin and a subuser holding the permission through', async () => {
    expect((await send(s.owner, route)).statusCode).toBe(route.ok);
    if (route.method === 'DELETE') await addSubuser(t.ctx, s.server, target, ['file.read']);
    expect((await send(s.admin, route)).statusCode).toBe(route.ok);
    if (route.method === 'DELETE') await addSubuser(t.ctx, s.server, target, ['file.read']);
    expect((await send(s.subuser, route)).statusCode).toBe(route.ok);
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
