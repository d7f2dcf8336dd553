import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { findNodeById } from '@aerie/panel/features/servers/servers.repository';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { type DaemonAnswer, type DaemonCall, startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapServers } from './bootstrap-servers';
import { dispatchPendingInstalls, waitForDaemon } from './daemon-installs';

let t: TestApp;
let client: DaemonClient;
const stops: (() => Promise<unknown>)[] = [];

/** A node whose daemon is a stand-in on a real socket, answering `answer`. */
async function nodeWithDaemon(
  answer?: (call: DaemonCall) => DaemonAnswer | undefined | Promise<DaemonAnswer | undefined>,
) {
  const row = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
  const daemon = await startDaemonStandIn({
    token: t.ctx.secretBox.open(row.daemon_token),
    answer,
    port: row.daemon_listen,
  });
  stops.push(daemon.close);
  return { row, node: toNodeRecord(row), daemon };
}

const statusOf = async (server: ServerRow) =>
  (await t.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirstOrThrow())
    .status;

beforeAll(async () => {
  t = await buildTestApp();
  client = new DaemonClient(t.ctx.secretBox, { timeoutMs: 2000 });
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await t.close();
});

describe('waitForDaemon', () => {
  it('gives up after its time limit when nothing listens', async () => {
    const row = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const started = Date.now();
    expect(await waitForDaemon(client, toNodeRecord(row), { timeoutMs: 400, intervalMs: 50 })).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("answers once the daemon listens and accepts the node's token, asking GET /api/system", async () => {
    const row = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const waiting = waitForDaemon(client, toNodeRecord(row), { timeoutMs: 10_000, intervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const daemon = await startDaemonStandIn({
      token: t.ctx.secretBox.open(row.daemon_token),
      port: row.daemon_listen,
      answer: () => ({ status: 200, body: { version: 'stand-in' } }),
    });
    stops.push(daemon.close);
    expect(await waiting).toBe(true);
    expect(daemon.calls.at(-1)).toMatchObject({ method: 'GET', url: '/api/system' });
  });

  it('keeps waiting while the daemon refuses the token', async () => {
    const row = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const daemon = await startDaemonStandIn({ token: 'another token', port: row.daemon_listen });
    stops.push(daemon.close);
    expect(await waitForDaemon(client, toNodeRecord(row), { timeoutMs: 300, intervalMs: 50 })).toBe(false);
    expect(daemon.calls.length).toBeGreaterThan(1);
  });

  it('stops waiting when aborted', async () => {
    const row = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const abort = new AbortController();
    const waiting = waitForDaemon(client, toNodeRecord(row), { timeoutMs: 60_000, signal: abort.signal });
    abort.abort();
    expect(await waiting).toBe(false);
  });
});

describe('dispatchPendingInstalls', () => {
  it("hands every never-installed server of the node to its daemon with Wings' calls, marking it installing", async () => {
    const { user } = await createTestUser(t.ctx);
    const egg = await importDemoEgg(t.ctx);
    const known = new Set<string>();
    const { row, node, daemon } = await nodeWithDaemon((call) => {
      const uuid = /^\/api\/servers\/([^/]+)$/.exec(call.url)?.[1];
      if (call.method === 'GET' && uuid) {
        return known.has(uuid)
          ? { status: 200, body: { state: 'offline' } }
          : { status: 404, body: { error: 'The requested resource does not exist on this instance.' } };
      }
      return { status: 202 };
    });
    const make = (status: string | null, installedAt: Date | null, on: NodeRow = row) =>
      createTestServer(t.ctx, { owner: user, node: on, eggId: egg.id, status, installedAt });
    const installing = await make('installing', null);
    const reset = await make(null, null);
    const installed = await make(null, new Date());
    // What a booting daemon makes of a first install it lost: handed over again (a script that failed sets
    // installed_at, so it is not).
    const lost = await make('install_failed', null);
    const failed = await make('install_failed', new Date());
    const suspended = await make('suspended', null);
    const elsewhere = await make('installing', null, await createTestNode(t.ctx));
    // The daemon loaded this one from the panel at boot: it is installed in place, not created again.
    known.add(reset.uuid);
    const printed: string[] = [];

    const result = await dispatchPendingInstalls(t.db, client, node, { print: (line) => printed.push(line) });
    expect(result).toEqual({ dispatched: [installing.uuid, reset.uuid, lost.uuid], failed: [] });
    const token = t.ctx.secretBox.open(row.daemon_token);
    expect(new Set(daemon.calls.map((call) => call.headers.authorization))).toEqual(
      new Set([`Bearer ${token}`]),
    );
    expect(daemon.calls.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: `/api/servers/${installing.uuid}`, body: undefined },
      { method: 'POST', url: '/api/servers', body: { uuid: installing.uuid, start_on_completion: false } },
      { method: 'GET', url: `/api/servers/${reset.uuid}`, body: undefined },
      { method: 'POST', url: `/api/servers/${reset.uuid}/install`, body: undefined },
      { method: 'GET', url: `/api/servers/${lost.uuid}`, body: undefined },
      { method: 'POST', url: '/api/servers', body: { uuid: lost.uuid, start_on_completion: false } },
    ]);
    expect(await statusOf(installing)).toBe('installing');
    expect(await statusOf(reset)).toBe('installing');
    expect(await statusOf(installed)).toBeNull();
    expect(await statusOf(lost)).toBe('installing');
    expect(await statusOf(failed)).toBe('install_failed');
    expect(await statusOf(suspended)).toBe('suspended');
    expect(await statusOf(elsewhere)).toBe('installing');
    expect(printed).toEqual([
      `Installing "${installing.name}" on ${node.name}.`,
      `Installing "${reset.name}" on ${node.name}.`,
      `Installing "${lost.name}" on ${node.name}.`,
    ]);
  });

  it('reports a refusal or an unreachable daemon and leaves the server installing for the next boot', async () => {
    const { user } = await createTestUser(t.ctx);
    const egg = await importDemoEgg(t.ctx);
    const { row, node } = await nodeWithDaemon((call) =>
      call.method === 'GET'
        ? { status: 404, body: { error: 'unknown' } }
        : { status: 422, body: { error: 'bad uuid' } },
    );
    const refused = await createTestServer(t.ctx, {
      owner: user,
      node: row,
      eggId: egg.id,
      installedAt: null,
    });
    const printed: string[] = [];
    const result = await dispatchPendingInstalls(t.db, client, node, { print: (line) => printed.push(line) });
    expect(result).toEqual({ dispatched: [], failed: [{ uuid: refused.uuid, message: '422 bad uuid' }] });
    expect(printed).toEqual([`Could not install "${refused.name}" on ${node.name}: 422 bad uuid`]);
    expect(await statusOf(refused)).toBe('installing');

    const down = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const lost = await createTestServer(t.ctx, { owner: user, node: down, eggId: egg.id, installedAt: null });
    const unreachable = await dispatchPendingInstalls(t.db, client, toNodeRecord(down));
    expect(unreachable.failed.map((entry) => entry.uuid)).toEqual([lost.uuid]);
    expect(await statusOf(lost)).toBe('installing');
  });

  it("installs aerie up's demo server end to end: the daemon fetches its script from the real panel and reports success", async () => {
    const panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { user } = await createTestUser(t.ctx, { rootAdmin: true });
    const port = await closedPort();
    const config = { ...t.config, daemon: { ...t.config.daemon, port } };
    const boot = await bootstrapServers(t.db, t.ctx.secretBox, config, { firstAdminId: user.id });
    const node = await findNodeById(t.db, boot.nodeId);
    const remote = `Bearer ${node.daemonTokenId}.${t.ctx.secretBox.open(node.daemonToken)}`;
    const scripts: unknown[] = [];
    // Like the daemon: answer 202, then fetch the install script and report the outcome on /api/remote.
    const daemon = await startDaemonStandIn({
      token: t.ctx.secretBox.open(node.daemonToken),
      port,
      answer: async (call) => {
        if (call.method === 'GET' && call.url !== '/api/system')
          return { status: 404, body: { error: 'unknown' } };
        if (call.url !== '/api/servers') return { status: 200, body: {} };
        const { uuid } = call.body as { uuid: string };
        const headers = { authorization: remote, accept: 'application/json' };
        scripts.push(
          await (await fetch(`${panelUrl}/api/remote/servers/${uuid}/install`, { headers })).json(),
        );
        const report = await fetch(`${panelUrl}/api/remote/servers/${uuid}/install`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ successful: true, reinstall: false }),
        });
        expect(report.status).toBe(204);
        return { status: 202 };
      },
    });
    stops.push(daemon.close);
    const demo = boot.demoServer as { id: number; uuid: string };
    expect(
      await t.db
        .selectFrom('servers')
        .select(['status', 'installed_at'])
        .where('id', '=', demo.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      status: 'installing',
      installed_at: null,
    });

    expect(await waitForDaemon(client, node, { timeoutMs: 5000 })).toBe(true);
    expect(await dispatchPendingInstalls(t.db, client, node)).toEqual({
      dispatched: [demo.uuid],
      failed: [],
    });
    expect(scripts).toEqual([
      expect.objectContaining({ entrypoint: 'bash', script: expect.stringContaining('demo-server.mjs') }),
    ]);
    const after = await t.db
      .selectFrom('servers')
      .select(['status', 'installed_at'])
      .where('id', '=', demo.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBeNull();
    expect(after.installed_at).not.toBeNull();
    // Installed servers are not sent again on the next boot.
    expect(await dispatchPendingInstalls(t.db, client, node)).toEqual({ dispatched: [], failed: [] });
  });
});
