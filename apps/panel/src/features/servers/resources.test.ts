import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { createTestNode, createTestServer, type ServerRow } from '@aerie/panel/test/server-factories';
import { type Scenario, serverScenario, setServerState } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A stand-in for the daemon's `GET /api/servers/{uuid}` on a real socket, recording what it was sent. */
function fakeDaemon(answers: Map<string, { status: number; body: unknown }>) {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    const uuid = /^\/api\/servers\/([^/]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const answer = answers.get(uuid) ?? {
      status: 404,
      body: { error: 'The requested resource does not exist on this instance.' },
    };
    response
      .writeHead(answer.status, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer.body));
  });
  const listening = new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return { seen, listening, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A port nothing listens on. */

const answers = new Map<string, { status: number; body: unknown }>();
const daemon = fakeDaemon(answers);
let t: TestApp;
let s: Scenario;
let url: string;

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['control.console']);
  const port = await daemon.listening;
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: port })
    .where('id', '=', s.node.id)
    .execute();
  url = `/api/client/servers/${s.server.uuid_short}/resources`;
  answers.set(s.server.uuid, {
    status: 200,
    body: {
      state: 'running',
      is_suspended: false,
      utilization: {
        memory_bytes: 104857600,
        memory_limit_bytes: 600000000,
        cpu_absolute: 12.5,
        network: { rx_bytes: 2048, tx_bytes: 4096 },
        uptime: 61000,
        state: 'running',
        disk_bytes: 52428800,
      },
      configuration: {},
    },
  });
});
afterAll(async () => {
  await t.close();
  await daemon.close();
});

const offline = {
  object: 'stats',
  attributes: {
    current_state: 'offline',
    is_suspended: false,
    resources: {
      memory_bytes: 0,
      cpu_absolute: 0,
      disk_bytes: 0,
      network_rx_bytes: 0,
      network_tx_bytes: 0,
      uptime: 0,
    },
  },
};

describe('GET /api/client/servers/{server}/resources', () => {
  it("relays the daemon's figures as a stats item, asking with the node's bearer token", async () => {
    const response = await s.owner.get(url);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      object: 'stats',
      attributes: {
        current_state: 'running',
        is_suspended: false,
        resources: {
          memory_bytes: 104857600,
          cpu_absolute: 12.5,
          disk_bytes: 52428800,
          network_rx_bytes: 2048,
          network_tx_bytes: 4096,
          uptime: 61000,
        },
      },
    });
    const call = daemon.seen.at(-1);
    expect(call?.url).toBe(`/api/servers/${s.server.uuid}`);
    const token = t.ctx.secretBox.open(
      (
        await t.db
          .selectFrom('nodes')
          .select('daemon_token')
          .where('id', '=', s.node.id)
          .executeTakeFirstOrThrow()
      ).daemon_token,
    );
    // Wings' scheme: the node token alone, never its id.
    expect(call?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('reuses an answer for 5 seconds, then asks the daemon again', async () => {
    const before = daemon.seen.length;
    expect((await s.subuser.get(url)).statusCode).toBe(200);
    expect((await s.admin.get(url)).statusCode).toBe(200);
    expect(daemon.seen.length).toBe(before);
    t.advanceClock(6000);
    expect((await s.owner.get(url)).statusCode).toBe(200);
    expect(daemon.seen.length).toBe(before + 1);
  });

  it('is open to the owner, any subuser and root admins, and 404 to strangers', async () => {
    expect((await s.limited.get(url)).statusCode).toBe(200);
    const stranger = await s.stranger.get(url);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().errors[0].detail).toBe('The requested resource does not exist on this server.');
  });

  it('answers the offline figures when the daemon does not know the server', async () => {
    const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const response = await s.owner.get(`/api/client/servers/${other.uuid}/resources`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(offline);
  });

  it('answers a connection error (502) for a node it never heard from, not a false "offline"', async () => {
    const down = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const server: ServerRow = await createTestServer(t.ctx, {
      owner: s.owner.user,
      node: down,
      eggId: s.egg.id,
    });
    const response = await s.owner.get(`/api/client/servers/${server.uuid_short}/resources`);
    expect(response.statusCode).toBe(502);
    expect(response.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '502',
      detail: 'Could not establish a connection to the machine running this server. Please try again.',
    });
  });

  it('shows the last known state, marked reconnecting, while the daemon restarts, for 15 minutes', async () => {
    const restarting = fakeDaemon(answers);
    const node = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await restarting.listening });
    const server = await createTestServer(t.ctx, { owner: s.owner.user, node, eggId: s.egg.id });
    answers.set(server.uuid, answers.get(s.server.uuid) as { status: number; body: unknown });
    const resources = `/api/client/servers/${server.uuid_short}/resources`;
    const live = (await s.owner.get(resources)).json();
    expect(live.attributes.current_state).toBe('running');
    expect(live.attributes).not.toHaveProperty('is_node_reconnecting');

    await restarting.close();
    t.advanceClock(6000);
    const meanwhile = await s.owner.get(resources);
    expect(meanwhile.statusCode).toBe(200);
    // The game keeps running while its daemon is away: it still reads running, not offline.
    expect(meanwhile.json()).toEqual({
      ...live,
      attributes: { ...live.attributes, is_node_reconnecting: true },
    });

    t.advanceClock(15 * 60_000);
    expect((await s.owner.get(resources)).statusCode).toBe(502);
  });

  it('turns any other daemon error into a 502', async () => {
    const broken = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    answers.set(broken.uuid, { status: 500, body: { error: 'disk on fire' } });
    const response = await s.owner.get(`/api/client/servers/${broken.uuid_short}/resources`);
    expect(response.statusCode).toBe(502);
    expect(response.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '502',
      detail: 'An error occurred on the remote host: disk on fire.',
    });
  });

  it.each([
    [
      { status: 'suspended' },
      'This server is currently suspended and the functionality requested is unavailable.',
    ],
    [
      { maintenance: true },
      'The node of this server is currently under maintenance and the functionality requested is unavailable.',
    ],
    [
      { status: 'installing' },
      'This server has not yet completed its installation process, please try again later.',
    ],
    [
      { status: 'install_failed' },
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
  ])('answers 409 in state %o, to root admins too', async (state, detail) => {
    await setServerState(t, s.server, s.node, state);
    try {
      for (const actor of [s.owner, s.admin]) {
        const response = await actor.get(url);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          errors: [{ code: 'ServerStateConflictException', status: '409', detail }],
        });
      }
      // A stranger still learns nothing: 404 comes before the state.
      expect((await s.stranger.get(url)).statusCode).toBe(404);
    } finally {
      await setServerState(t, s.server, s.node, {});
    }
  });
});
