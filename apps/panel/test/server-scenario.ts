import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import type { User } from '@aerie/panel/features/users/user';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { TestBrowser } from './browser';
import type { TestApp } from './build-test-app';
import { startDaemonStandIn } from './daemon-stand-in';
import { createTestUser } from './factories';
import {
  addSubuser,
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from './server-factories';

/** A signed-in person in a server test. */
export interface Actor {
  user: User;
  browser: TestBrowser;
  get(url: string): Promise<LightMyRequestResponse>;
}

export async function signedIn(t: TestApp, options: { rootAdmin?: boolean } = {}): Promise<Actor> {
  const { user, password } = await createTestUser(t.ctx, options);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, browser, get: (url) => browser.get(url) };
}

/**
 * The authorization matrix cast around one server: its owner, a subuser holding `permissions`, a subuser holding
 * only websocket.connect, a stranger and a root admin (who neither owns nor is a subuser of it).
 */
export async function serverScenario(t: TestApp, permissions: string[]) {
  const node = await createTestNode(t.ctx);
  const egg = await importDemoEgg(t.ctx);
  const [owner, subuser, limited, stranger, admin] = await Promise.all([
    signedIn(t),
    signedIn(t),
    signedIn(t),
    signedIn(t),
    signedIn(t, { rootAdmin: true }),
  ]);
  const server = await createTestServer(t.ctx, { owner: owner.user, node, eggId: egg.id });
  await addSubuser(t.ctx, server, subuser.user, permissions);
  await addSubuser(t.ctx, server, limited.user, ['websocket.connect']);
  return { node, egg, server, owner, subuser, limited, stranger, admin };
}

export type Scenario = Awaited<ReturnType<typeof serverScenario>>;

/** Puts a server in a state: a status, a node in maintenance, or a running transfer. */
export async function setServerState(
  t: TestApp,
  server: ServerRow,
  node: NodeRow,
  state: { status?: string | null; maintenance?: boolean; transferring?: boolean },
) {
  await t.db
    .updateTable('servers')
    .set({ status: state.status ?? null })
    .where('id', '=', server.id)
    .execute();
  await t.db
    .updateTable('nodes')
    .set({ maintenance_mode: state.maintenance ?? false })
    .where('id', '=', node.id)
    .execute();
  await t.db.deleteFrom('server_transfers').where('server_id', '=', server.id).execute();
  if (state.transferring) {
    const now = new Date();
    await t.db
      .insertInto('server_transfers')
      .values({ server_id: server.id, successful: null, archived: false, created_at: now, updated_at: now })
      .execute();
  }
}

export type ServerState = Parameters<typeof setServerState>[3];

/** Every state that blocks a server's routes, with the 409 detail the panel answers (reference §7.2). */
export const conflictStates: [ServerState, string][] = [
  [
    { status: 'suspended' },
    'This server is currently suspended and the functionality requested is unavailable.',
  ],
  [
    { status: 'installing' },
    'This server has not yet completed its installation process, please try again later.',
  ],
  [
    { status: 'restoring_backup' },
    'This server is currently restoring from a backup, please try again later.',
  ],
  [
    { transferring: true },
    'This server is currently being transferred to a new machine, please try again later.',
  ],
  [
    { maintenance: true },
    'The node of this server is currently under maintenance and the functionality requested is unavailable.',
  ],
];

/** Upstream's 403 for a subuser without a route's permission (`AccessDeniedHttpException`). */
export const accessDenied = {
  code: 'AccessDeniedHttpException',
  status: '403',
  detail: 'This action is unauthorized.',
};

/**
 * The two refusals of the access matrix: a subuser without the route's permission (`without`) and one holding only
 * websocket.connect (`limited`) get 403 (`denied`, upstream's AccessDeniedHttpException by default); everyone in
 * `strangers` (no access to this server, or a subuser of another one) gets 404, so the server's existence is not
 * told to them.
 */
export async function expectForbiddenThenHidden(
  send: (actor: Actor) => Promise<LightMyRequestResponse>,
  actors: { without: Actor; limited: Actor; strangers: Actor[] },
  denied: { code: string; status: string; detail: string } = accessDenied,
): Promise<void> {
  const without = await send(actors.without);
  expect(without.statusCode).toBe(403);
  expect(without.json().errors[0]).toEqual(denied);
  expect((await send(actors.limited)).statusCode).toBe(403);
  for (const actor of actors.strangers) {
    const response = await send(actor);
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].code).toBe('NotFoundHttpException');
  }
}

/**
 * Puts the server in `state`, expects each actor's request (made by `send`) to get 409 with `detail`, and puts the
 * server back to normal whatever happened.
 */
export async function expectConflictForEach(
  t: TestApp,
  target: { server: ServerRow; node: NodeRow },
  [state, detail]: [ServerState, string],
  actors: Actor[],
  send: (actor: Actor) => Promise<LightMyRequestResponse>,
): Promise<void> {
  await setServerState(t, target.server, target.node, state);
  try {
    for (const actor of actors) {
      const response = await send(actor);
      expect(response.statusCode).toBe(409);
      expect(response.json().errors[0]).toEqual({
        code: 'ServerStateConflictException',
        status: '409',
        detail,
      });
    }
  } finally {
    await setServerState(t, target.server, target.node, {});
  }
}

/**
 * `serverScenario` whose node is a daemon stand-in on a real socket (answering 204 unless `answer` says otherwise),
 * with the calls it got for the scenario's server by what follows `/api/servers/{uuid}/` (`callsTo('sync')`).
 * Close it with `daemon.close()` after the app.
 */
export async function serverScenarioWithDaemon(
  t: TestApp,
  permissions: string[],
  answer?: Parameters<typeof startDaemonStandIn>[0]['answer'],
) {
  const scenario = await serverScenario(t, permissions);
  const daemon = await startDaemonStandIn({
    token: t.ctx.secretBox.open(scenario.node.daemon_token),
    answer: answer ?? (() => ({ status: 204 })),
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', scenario.node.id)
    .execute();
  const callsTo = (suffix: string) =>
    daemon.calls.filter((call) => call.url === `/api/servers/${scenario.server.uuid}/${suffix}`);
  return { ...scenario, daemon, callsTo };
}
