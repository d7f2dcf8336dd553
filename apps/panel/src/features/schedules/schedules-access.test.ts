import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addTestTasks, createTestSchedule } from '@aerie/panel/test/schedule-factories';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  accessDenied,
  conflictStates,
  expectConflictForEach,
  expectForbiddenThenHidden,
  serverScenarioWithDaemon,
  setServerState,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * Who may use the schedule routes (reference §10 ScheduleAuthorizationTest, §2.4): owner, root admin and a subuser
 * holding the route's permission get through; a subuser without it 403; a stranger, and a subuser of another
 * server, 404; a schedule or task of another server 404 to everyone, before any other check; every state
 * conflict 409 (before the permission).
 */

const ALL = ['schedule.read', 'schedule.create', 'schedule.update', 'schedule.delete', 'websocket.connect'];
const TASK = { action: 'command', payload: 'say hi', time_offset: 0 };
const SCHEDULE = {
  name: 'S',
  is_active: true,
  minute: '*',
  hour: '*',
  day_of_month: '*',
  month: '*',
  day_of_week: '*',
};

/** Each route with a request that succeeds for someone allowed. */
const routes = [
  { name: 'GET /schedules', method: 'GET', path: '', permission: 'schedule.read', ok: 200 },
  {
    name: 'POST /schedules',
    method: 'POST',
    path: '',
    body: SCHEDULE,
    permission: 'schedule.create',
    ok: 200,
  },
  { name: 'GET /schedules/{s}', method: 'GET', path: '/{s}', permission: 'schedule.read', ok: 200 },
  {
    name: 'POST /schedules/{s}',
    method: 'POST',
    path: '/{s}',
    body: SCHEDULE,
    permission: 'schedule.update',
    ok: 200,
  },
  {
    name: 'POST /schedules/{s}/execute',
    method: 'POST',
    path: '/{s}/execute',
    permission: 'schedule.update',
    ok: 202,
  },
  { name: 'DELETE /schedules/{s}', method: 'DELETE', path: '/{s}', permission: 'schedule.delete', ok: 204 },
  {
    name: 'POST /schedules/{s}/tasks',
    method: 'POST',
    path: '/{s}/tasks',
    body: TASK,
    permission: 'schedule.update',
    ok: 200,
  },
  {
    name: 'POST /schedules/{s}/tasks/{t}',
    method: 'POST',
    path: '/{s}/tasks/{t}',
    body: TASK,
    permission: 'schedule.update',
    ok: 200,
  },
  {
    name: 'DELETE /schedules/{s}/tasks/{t}',
    method: 'DELETE',
    path: '/{s}/tasks/{t}',
    permission: 'schedule.update',
    ok: 204,
  },
] as const;
type Route = (typeof routes)[number];

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
/** Per permission, a subuser holding every schedule permission but that one. */
const allBut = new Map<string, Actor>();
/** A subuser with every schedule permission on another server only. */
let outsider: Actor;
let otherServer: { id: number };
/** What the `{s}` and `{t}` routes act on: made again before each test. */
let target: { schedule: number; task: number };
let foreign: { schedule: number; task: number };

const needsTarget = (route: Route) => route.path.includes('{s}');
const fill = (route: Route, ids: { schedule: number; task: number }) =>
  route.path.replace('{s}', String(ids.schedule)).replace('{t}', String(ids.task));

function send(actor: Actor, route: Route, ids = target) {
  const url = `/api/client/servers/${s.server.uuid_short}/schedules${fill(route, ids)}`;
  if (route.method === 'GET') return actor.get(url);
  if (route.method === 'DELETE') return actor.browser.send('DELETE', url);
  return actor.browser.post(url, 'body' in route ? { ...route.body } : undefined);
}

async function scheduleWithTask(server: { id: number }) {
  const schedule = await createTestSchedule(t.ctx, server, { nextRunAt: null });
  const [task] = await addTestTasks(t.ctx, schedule, [{}]);
  return { schedule, task: task as number };
}

/** Puts the target back after a route that deleted it or started it. */
async function restore() {
  await t.ctx.scheduleRunner.idle();
  target = await scheduleWithTask(s.server);
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
  otherServer = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
  await addSubuser(t.ctx, otherServer as never, outsider.user, ALL);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  await t.ctx.scheduleRunner.idle();
  await t.db.deleteFrom('schedules').execute();
  target = await scheduleWithTask(s.server);
  foreign = await scheduleWithTask(otherServer);
});

describe.each(routes)('$name', (route) => {
  it('lets the owner, a root admin and a subuser holding the permission through', async () => {
    for (const actor of [s.owner, s.admin, s.subuser]) {
      expect((await send(actor, route)).statusCode).toBe(route.ok);
      await restore();
    }
  });

  it(`answers 403 to a subuser without ${route.permission}, 404 to a stranger and another server's subuser`, async () => {
    await expectForbiddenThenHidden(
      (actor) => send(actor, route),
      {
        without: allBut.get(route.permission) as Actor,
        limited: s.limited,
        strangers: [s.stranger, outsider],
      },
      route.name === 'DELETE /schedules/{s}/tasks/{t}'
        ? {
            code: 'HttpForbiddenException',
            status: '403',
            detail: 'You do not have permission to perform this action.',
          }
        : accessDenied,
    );
  });

  it.each(conflictStates)('answers 409 while the server is %o', async (state, detail) => {
    await expectConflictForEach(t, s, [state, detail], [s.owner, s.subuser], (actor) => send(actor, route));
  });
});

describe.each(routes.filter(needsTarget))('$name, on another server’s schedule or task', (route) => {
  it('answers 404 for a schedule or task of another server to everyone, before the permission and the state', async () => {
    const mixed = [
      foreign,
      { schedule: foreign.schedule, task: target.task },
      { ...target, task: foreign.task },
    ];
    const cases = route.path.includes('{t}') ? mixed : mixed.slice(0, 1);
    for (const ids of cases) {
      for (const actor of [s.owner, s.admin, s.limited, allBut.get(route.permission) as Actor, s.stranger]) {
        expect((await send(actor, route, ids)).statusCode).toBe(404);
      }
    }
    await setServerState(t, s.server, s.node, { status: 'suspended' });
    try {
      expect((await send(s.owner, route, foreign)).statusCode).toBe(404);
    } finally {
      await setServerState(t, s.server, s.node, {});
    }
  });
});
