import { readBool } from '@aerie/panel/db/dialect';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import type { ServerRow } from '@aerie/panel/test/server-factories';
import { type TransferScenario, transferScenario } from '@aerie/panel/test/transfer-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The ends of a transfer: the target's success (the server moves, the source's copy is deleted) and either end's
 * failure, each once (reports on an ended transfer change nothing), only from the transfer's own nodes; the
 * configuration the target reads while it runs; a daemon's boot and the panel's start failing what ran; and what
 * clients see (is_transferring, the websocket's node).
 */

let t: TestApp;
let s: TransferScenario;
let owner: TestBrowser;

beforeAll(async () => {
  t = await buildTestApp();
  s = await transferScenario(t);
  owner = new TestBrowser(t.app);
  await owner.signIn(s.owner.username, s.ownerPassword);
});
afterAll(async () => {
  await t.close();
  await s.close();
});
beforeEach(async () => {
  s.source.answerWith(() => undefined);
  s.target.answerWith(() => undefined);
  // Each test starts with no transfer running (a restart fails every one its node had).
  await t.db
    .updateTable('server_transfers')
    .set({ successful: false })
    .where('successful', 'is', null)
    .execute();
});

/** A server on the source with a running transfer to the target; the calls so far cleared. */
async function transferring() {
  const server = await s.newServer();
  const [primary, extra] = await s.freeAllocations(s.target.node, 2);
  const response = await s.api.transfer(server.id, {
    node_id: s.target.node.id,
    allocation_id: primary,
    allocation_additional: [extra],
  });
  expect(response.statusCode, response.body).toBe(202);
  const old = (
    await t.db
      .selectFrom('allocations')
      .select('id')
      .where('server_id', '=', server.id)
      .where('node_id', '=', s.source.node.id)
      .execute()
  ).map((row) => row.id);
  s.clearCalls();
  return { server, primary, extra, old };
}

const serverRow = (server: ServerRow) =>
  t.db
    .selectFrom('servers')
    .select(['node_id', 'allocation_id'])
    .where('id', '=', server.id)
    .executeTakeFirstOrThrow();
const clientView = async (server: ServerRow) =>
  (await owner.get(`/api/client/servers/${server.uuid_short}`)).json().attributes;
const latest = async (server: ServerRow) => (await s.transfersOf(server.id)).at(-1);
const settled = () => t.ctx.transferReports.settled();

describe('POST /api/remote/servers/{uuid}/transfer/success', () => {
  it('moves the server to the target, frees what it held on the source, and deletes it there', async () => {
    const { server, primary, extra, old } = await transferring();
    expect(old).toHaveLength(2);
    expect((await clientView(server)).is_transferring).toBe(true);
    const before = await owner.get(`/api/client/servers/${server.uuid_short}/websocket`);
    expect(before.statusCode).toBe(409);

    const response = await s.remote(s.target.node, 'POST', `/servers/${server.uuid}/transfer/success`);
    expect(response.statusCode).toBe(204);
    expect(await serverRow(server)).toEqual({ node_id: s.target.node.id, allocation_id: primary });
    expect(await s.holders([...old, primary, extra])).toEqual({
      [old[0] as number]: null,
      [old[1] as number]: null,
      [primary]: server.id,
      [extra]: server.id,
    });
    const transfer = await latest(server);
    expect(readBool(transfer?.successful ?? false)).toBe(true);
    expect(readBool(transfer?.archived ?? false)).toBe(true);
    expect(transfer?.failure).toBeNull();
    await settled();
    expect(s.source.calls()).toEqual([`DELETE /api/servers/${server.uuid}`]);
    expect(s.target.calls()).toEqual([]);

    // Clients follow it: not transferring, the console socket on the target's daemon.
    expect((await clientView(server)).is_transferring).toBe(false);
    const socket = await owner.get(`/api/client/servers/${server.uuid_short}/websocket`);
    expect(socket.statusCode).toBe(200);
    expect(socket.json().data.socket).toBe(
      `ws://127.0.0.1:${s.target.node.daemon_listen}/api/servers/${server.uuid}/ws`,
    );
    // The daemons' view: the target has it, the source no more.
    expect((await s.remote(s.target.node, 'GET', `/servers/${server.uuid}`)).statusCode).toBe(200);
    expect((await s.remote(s.source.node, 'GET', `/servers/${server.uuid}`)).statusCode).toBe(404);

    // Told again (a retry): nothing changes, nothing is deleted twice.
    const again = await s.remote(s.target.node, 'POST', `/servers/${server.uuid}/transfer/success`);
    expect(again.statusCode).toBe(204);
    const failure = await s.remote(s.source.node, 'POST', `/servers/${server.uuid}/transfer/failure`, {
      reason: 'late',
    });
    expect(failure.statusCode).toBe(204);
    expect(readBool((await latest(server))?.successful ?? false)).toBe(true);
    expect(await serverRow(server)).toEqual({ node_id: s.target.node.id, allocation_id: primary });
    await settled();
    expect(s.source.calls()).toEqual([`DELETE /api/servers/${server.uuid}`]);
  });

  it('takes success from the target only: 403 from the source, 404 from any other node or for no server', async () => {
    const { server, primary } = await transferring();
    const fromSource = await s.remote(s.source.node, 'POST', `/servers/${server.uuid}/transfer/success`);
    expect(fromSource.statusCode).toBe(403);
    expect(fromSource.json().errors[0].detail).toBe(
      'Only the node the server is being transferred to can report its success.',
    );
    const fromStranger = await s.remote(s.stranger, 'POST', `/servers/${server.uuid}/transfer/success`);
    expect(fromStranger.statusCode).toBe(404);
    const unknown = await s.remote(
      s.target.node,
      'POST',
      '/servers/5e7b4b7e-0000-4000-8000-000000000000/transfer/success',
    );
    expect(unknown.statusCode).toBe(404);
    expect(await serverRow(server)).toEqual({
      node_id: s.source.node.id,
      allocation_id: server.allocation_id,
    });
    expect((await latest(server))?.successful).toBeNull();
    expect(await s.holders([primary])).toEqual({ [primary]: server.id });
    // Wings' older GET form is taken too.
    expect(
      (await s.remote(s.target.node, 'GET', `/servers/${server.uuid}/transfer/success`)).statusCode,
    ).toBe(204);
    expect((await serverRow(server)).node_id).toBe(s.target.node.id);
  });
});

describe('POST /api/remote/servers/{uuid}/transfer/failure', () => {
  it("from the source: its reason recorded (trimmed, clipped), the target's allocations freed, the target told", async () => {
    const { server, primary, extra, old } = await transferring();
    const reason = `  the target answered 422: ${'x'.repeat(600)}  `;
    const response = await s.remote(s.source.node, 'POST', `/servers/${server.uuid}/transfer/failure`, {
      reason,
    });
    expect(response.statusCode).toBe(204);
    const transfer = await latest(server);
    expect(readBool(transfer?.successful ?? true)).toBe(false);
    expect(transfer?.failure).toBe(reason.trim().slice(0, 500));
    expect(await s.holders([primary, extra, ...old])).toEqual({
      [primary]: null,
      [extra]: null,
      [old[0] as number]: server.id,
      [old[1] as number]: server.id,
    });
    expect(await serverRow(server)).toEqual({
      node_id: s.source.node.id,
      allocation_id: server.allocation_id,
    });
    expect((await clientView(server)).is_transferring).toBe(false);
    await settled();
    expect(s.target.calls()).toEqual([`DELETE /api/transfers/${server.uuid}`]);
    expect(s.source.calls()).toEqual([]);
    // The target no longer gets the server's configuration.
    expect((await s.remote(s.target.node, 'GET', `/servers/${server.uuid}`)).statusCode).toBe(404);
  });

  it('from the target, without a body: a reason naming it, the source told; a success after it is refused (409)', async () => {
    const { server, primary } = await transferring();
    const response = await s.remote(s.target.node, 'POST', `/servers/${server.uuid}/transfer/failure`);
    expect(response.statusCode).toBe(204);
    expect((await latest(server))?.failure).toBe('the target node reported a failure');
    await settled();
    expect(s.source.calls()).toEqual([`DELETE /api/servers/${server.uuid}/transfer`]);
    expect(s.target.calls()).toEqual([]);
    // The target must drop the copy it kept: the panel answers that the transfer is over.
    const late = await s.remote(s.target.node, 'POST', `/servers/${server.uuid}/transfer/success`);
    expect(late.statusCode).toBe(409);
    expect(late.json().errors[0].detail).toBe(
      'This transfer has already ended; the server stays where it was.',
    );
    expect(await serverRow(server)).toEqual({
      node_id: s.source.node.id,
      allocation_id: server.allocation_id,
    });
    expect(await s.holders([primary])).toEqual({ [primary]: null });
  });

  it('is 404 from a node that is no end of it, 422 for a reason that is not text', async () => {
    const { server } = await transferring();
    expect(
      (await s.remote(s.stranger, 'POST', `/servers/${server.uuid}/transfer/failure`, {})).statusCode,
    ).toBe(404);
    const bad = await s.remote(s.source.node, 'POST', `/servers/${server.uuid}/transfer/failure`, {
      reason: 42,
    });
    expect(bad.statusCode).toBe(422);
    expect((await latest(server))?.successful).toBeNull();
  });
});

describe('GET /api/remote/servers/{uuid} while a transfer runs', () => {
  it('gives the target the configuration, on its new primary allocation; other nodes still get 404', async () => {
    const { server, primary, extra } = await transferring();
    const ports = await t.db
      .selectFrom('allocations')
      .select(['id', 'ip', 'port'])
      .where('id', 'in', [primary, extra])
      .execute();
    const portOf = (id: number) => ports.find((row) => row.id === id)?.port;
    const response = await s.remote(s.target.node, 'GET', `/servers/${server.uuid}`);
    expect(response.statusCode).toBe(200);
    const { allocations } = response.json().settings;
    expect(allocations.default).toEqual({ ip: '10.9.0.1', port: portOf(primary) });
    expect(allocations.mappings).toEqual({ '10.9.0.1': [portOf(primary), portOf(extra)] });
    // The source still runs it on its own allocations.
    const fromSource = await s.remote(s.source.node, 'GET', `/servers/${server.uuid}`);
    expect(fromSource.json().settings.allocations.default.ip).toBe('10.8.0.1');
    expect((await s.remote(s.stranger, 'GET', `/servers/${server.uuid}`)).statusCode).toBe(404);
    // The target's list of its own servers does not have it yet.
    const list = await s.remote(s.target.node, 'GET', '/servers?per_page=100');
    expect(list.json().data.map((entry: { uuid: string }) => entry.uuid)).not.toContain(server.uuid);
    await s.api.cancel(server.id);
    expect((await s.remote(s.target.node, 'GET', `/servers/${server.uuid}`)).statusCode).toBe(404);
  });
});

describe('restarts', () => {
  it("a daemon's boot (servers/reset) fails the transfers it was sending or receiving, and tells the other end", async () => {
    for (const [restarted, other, side, told] of [
      [s.target, s.source, 'target', 'DELETE /api/servers/{uuid}/transfer'],
      [s.source, s.target, 'source', 'DELETE /api/transfers/{uuid}'],
    ] as const) {
      const { server, primary, extra } = await transferring();
      const response = await s.remote(restarted.node, 'POST', '/servers/reset');
      expect(response.statusCode).toBe(204);
      const transfer = await latest(server);
      expect(readBool(transfer?.successful ?? true)).toBe(false);
      expect(transfer?.failure).toBe(`the ${side} node restarted during the transfer`);
      expect(await s.holders([primary, extra])).toEqual({ [primary]: null, [extra]: null });
      expect(await serverRow(server)).toEqual({
        node_id: s.source.node.id,
        allocation_id: server.allocation_id,
      });
      await settled();
      expect(other.calls()).toEqual([told.replace('{uuid}', server.uuid)]);
    }
    // A node with nothing running is told nothing.
    const quiet = await s.remote(s.stranger, 'POST', '/servers/reset');
    expect(quiet.statusCode).toBe(204);
  });

  it('the sweep (at start and every minute) fails a transfer its source no longer sends, and leaves the rest', async () => {
    const abandoned = await transferring();
    const underWay = await transferring();
    const gone = await transferring();
    s.clearCalls();
    const details = (transferring: boolean | undefined) => ({
      status: 200,
      body: {
        state: 'offline',
        is_suspended: false,
        ...(transferring === undefined ? {} : { is_transferring: transferring }),
      },
    });
    s.source.answerWith((call) => {
      if (call.method !== 'GET') return undefined;
      if (call.path === `/api/servers/${abandoned.server.uuid}`) return details(false);
      if (call.path === `/api/servers/${underWay.server.uuid}`) return details(true);
      return { status: 404, body: { error: 'The requested resource does not exist on this instance.' } };
    });
    expect(await t.ctx.transferReports.sweep()).toBe(2);
    for (const { server, primary, extra } of [abandoned, gone]) {
      expect((await latest(server))?.failure).toBe(
        'the source node is no longer sending the server (its report never reached the panel)',
      );
      expect(await s.holders([primary, extra])).toEqual({ [primary]: null, [extra]: null });
    }
    expect((await latest(underWay.server))?.successful).toBeNull();
    await settled();
    expect(s.target.calls().sort()).toEqual(
      [abandoned, gone].map(({ server }) => `DELETE /api/transfers/${server.uuid}`).sort(),
    );

    // A source that does not say (Wings), or does not answer, leaves the transfer running.
    s.source.answerWith((call) => (call.method === 'GET' ? details(undefined) : undefined));
    expect(await t.ctx.transferReports.sweep()).toBe(0);
    s.source.answerWith(() => 'hang-up');
    expect(await t.ctx.transferReports.sweep()).toBe(0);
    expect((await latest(underWay.server))?.successful).toBeNull();
    s.source.answerWith(() => undefined);
  });
});
