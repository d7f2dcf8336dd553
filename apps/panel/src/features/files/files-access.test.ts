import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { type FilesScenario, filesScenario } from '@aerie/panel/test/files-scenario';
import { addSubuser, createTestNode, createTestServer } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  setServerState,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FILE_PERMISSIONS = [
  'file.create',
  'file.read',
  'file.read-content',
  'file.update',
  'file.delete',
  'file.archive',
  'file.sftp',
];

/** Every files route with a valid request, its permission and its success status. */
const routes = [
  { method: 'GET', path: 'list?directory=/', permission: 'file.read', ok: 200 },
  { method: 'GET', path: 'contents?file=hello.txt', permission: 'file.read-content', ok: 200 },
  { method: 'GET', path: 'download?file=hello.txt', permission: 'file.read-content', ok: 200 },
  { method: 'GET', path: 'upload', permission: 'file.create', ok: 200 },
  { method: 'POST', path: 'write?file=new.txt', body: 'new', permission: 'file.create', ok: 204 },
  {
    method: 'PUT',
    path: 'rename',
    body: { root: '/', files: [{ from: 'a', to: 'b' }] },
    permission: 'file.update',
    ok: 204,
  },
  { method: 'POST', path: 'copy', body: { location: '/hello.txt' }, permission: 'file.create', ok: 204 },
  {
    method: 'POST',
    path: 'compress',
    body: { root: '/', files: ['hello.txt'] },
    permission: 'file.archive',
    ok: 200,
  },
  {
    method: 'POST',
    path: 'decompress',
    body: { root: '/', file: 'a.tar.gz' },
    permission: 'file.create',
    ok: 204,
  },
  { method: 'POST', path: 'delete', body: { root: '/', files: ['a'] }, permission: 'file.delete', ok: 204 },
  {
    method: 'POST',
    path: 'create-folder',
    body: { root: '/', name: 'x' },
    permission: 'file.create',
    ok: 204,
  },
  {
    method: 'POST',
    path: 'chmod',
    body: { root: '/', files: [{ file: 'a', mode: '755' }] },
    permission: 'file.update',
    ok: 204,
  },
] as const;
type Route = (typeof routes)[number];

let t: TestApp;
let f: FilesScenario;
/** Per permission: a subuser holding only it, and one holding every other file permission. */
const only = new Map<string, Actor>();
const allBut = new Map<string, Actor>();

/** The route's request from `actor`, on the scenario's server or another one. */
function send(actor: Actor, route: Route, server = f.server.uuid_short) {
  const url = `/api/client/servers/${server}/files/${route.path}`;
  if (route.method === 'GET') return actor.get(url);
  const body = route.body;
  const headers: Record<string, string> = typeof body === 'string' ? { 'content-type': 'text/plain' } : {};
  return actor.browser.send(route.method, url, body as Record<string, unknown> | string, { headers });
}

beforeAll(async () => {
  t = await buildTestApp();
  f = await filesScenario(t, FILE_PERMISSIONS);
  for (const permission of new Set(routes.map((route) => route.permission))) {
    const holder = await signedIn(t);
    await addSubuser(t.ctx, f.server, holder.user, [permission]);
    only.set(permission, holder);
    const lacking = await signedIn(t);
    await addSubuser(t.ctx, f.server, lacking.user, [
      'websocket.connect',
      ...FILE_PERMISSIONS.filter((p) => p !== permission),
    ]);
    allBut.set(permission, lacking);
  }
});
afterAll(async () => {
  await t.close();
  await f.daemon.close();
});

describe.each(routes)('$method files/$path ($permission)', (route) => {
  it('lets the owner, a root admin, a subuser with every file permission and one with just this one through', async () => {
    for (const actor of [f.owner, f.admin, f.subuser, only.get(route.permission) as Actor]) {
      const before = f.daemon.calls.length;
      const response = await send(actor, route);
      expect(response.statusCode, `${actor.user.username}: ${response.body}`).toBe(route.ok);
      // Signed URLs are made by the panel alone; everything else is one daemon call.
      const expectedCalls = route.path.startsWith('download') || route.path === 'upload' ? 0 : 1;
      expect(f.daemon.calls.length - before).toBe(expectedCalls);
    }
  });

  it('answers 403 to a subuser without the permission, without calling the daemon', async () => {
    for (const actor of [allBut.get(route.permission) as Actor, f.limited]) {
      const before = f.daemon.calls.length;
      const response = await send(actor, route);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        errors: [
          { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
        ],
      });
      expect(f.daemon.calls.length).toBe(before);
    }
  });

  it('answers 404 to a stranger', async () => {
    const response = await send(f.stranger, route);
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0]).toEqual({
      code: 'NotFoundHttpException',
      status: '404',
      detail: 'The requested resource does not exist on this server.',
    });
  });

  it.each(conflictStates)(
    'answers 409 in state %o, to the owner, a root admin and a subuser alike',
    (state, detail) =>
      expectConflictForEach(t, f, [state, detail], [f.owner, f.admin, f.subuser], (actor) =>
        send(actor, route),
      ),
  );

  it('checks the state (409) before the permission (403)', async () => {
    await setServerState(t, f.server, f.node, { status: 'suspended' });
    try {
      expect((await send(allBut.get(route.permission) as Actor, route)).statusCode).toBe(409);
    } finally {
      await setServerState(t, f.server, f.node, {});
    }
  });
});

/** The routes that call the daemon. */
const relayed = routes.filter((route) => !route.path.startsWith('download') && route.path !== 'upload');

describe("the daemon's errors", () => {
  it.each(relayed)("relays a refusal of $path with the daemon's status and text", async (route) => {
    f.answerWith(() => ({
      status: 400,
      body: { error: 'This file cannot be modified: present in egg denylist.' },
    }));
    try {
      const response = await send(f.owner, route);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        errors: [
          {
            code: 'DaemonConnectionException',
            status: '400',
            detail:
              'An error occurred on the remote host: This file cannot be modified: present in egg denylist.',
          },
        ],
      });
    } finally {
      f.answerWith(undefined);
    }
  });

  it.each([
    [404, 'The requested resources was not found on the system.'],
    [409, 'There is not enough disk space available to perform that action.'],
    [500, 'disk on fire'],
  ])('relays a daemon %i', async (status, error) => {
    f.answerWith(() => ({ status, body: { error } }));
    try {
      const response = await f.call(f.owner, 'GET', 'list?directory=/missing');
      expect(response.statusCode).toBe(status);
      expect(response.json().errors[0]).toEqual({
        code: 'DaemonConnectionException',
        status: String(status),
        detail: `An error occurred on the remote host: ${error.replace(/\.$/, '')}.`,
      });
    } finally {
      f.answerWith(undefined);
    }
  });

  it.each(relayed)('answers 502 when the daemon hangs up on $path', async (route) => {
    f.answerWith(() => 'hang-up');
    try {
      const response = await send(f.owner, route);
      expect(response.statusCode).toBe(502);
      expect(response.json().errors[0].code).toBe('DaemonConnectionException');
    } finally {
      f.answerWith(undefined);
    }
  });

  it('answers 502 when the node cannot be reached', async () => {
    const down = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const offline = await createTestServer(t.ctx, { owner: f.owner.user, node: down, eggId: f.egg.id });
    for (const route of relayed) {
      const response = await send(f.owner, route, offline.uuid_short);
      expect(response.statusCode, route.path).toBe(502);
      expect(response.json()).toEqual({
        errors: [
          {
            code: 'DaemonConnectionException',
            status: '502',
            detail: 'Could not establish a connection to the machine running this server. Please try again.',
          },
        ],
      });
    }
  });

  it('is refused by the daemon (403 relayed) when the node token does not match', async () => {
    const node = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: f.daemon.port });
    const server = await createTestServer(t.ctx, { owner: f.owner.user, node, eggId: f.egg.id });
    const response = await f.owner.get(`/api/client/servers/${server.uuid_short}/files/list`);
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].code).toBe('DaemonConnectionException');
  });
});
