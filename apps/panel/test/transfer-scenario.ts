import { addAllocations, type NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import type { FastifyInstance } from 'fastify';
import { applicationRequest, createAdminWithKey } from './application-api';
import type { TestApp } from './build-test-app';
import { type DaemonAnswer, type DaemonCall, startDaemonStandIn } from './daemon-stand-in';
import { createTestUser } from './factories';
import { addServerAllocation, createTestNode, createTestServer, importDemoEgg } from './server-factories';

/** A node whose daemon is a stand-in on a real socket, answering with `answer` (202 by default, as Wings does). */
export async function nodeWithStandIn(t: TestApp, name: string) {
  const row = await createTestNode(t.ctx, { name });
  let answer: (call: DaemonCall) => DaemonAnswer | undefined = () => undefined;
  const daemon = await startDaemonStandIn({
    token: t.ctx.secretBox.open(row.daemon_token),
    answer: (call) => answer(call) ?? { status: 202 },
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', row.id)
    .execute();
  const node: NodeRow = { ...row, fqdn: '127.0.0.1', daemon_listen: daemon.port };
  return {
    node,
    daemon,
    /** How the stand-in answers from now on (undefined: 202). */
    answerWith(next: (call: DaemonCall) => DaemonAnswer | undefined) {
      answer = next;
    },
    /** The calls it got, as `METHOD path`. */
    calls: () => daemon.calls.map((call) => `${call.method} ${call.path}`),
  };
}

export type StandInNode = Awaited<ReturnType<typeof nodeWithStandIn>>;

let port = 41000;

/** `count` ids as a tuple, so tests destructure them without undefined. */
type Ids<N extends number, T extends number[] = []> = T['length'] extends N ? T : Ids<N, [...T, number]>;

/**
 * A transfer's cast: a source and a target node each with a daemon stand-in, a third node without one, an owner, an
 * administrator's application key, and helpers for fresh servers (on the source, with one additional allocation)
 * and free allocations. Close the stand-ins with `close()` after the app.
 */
export async function transferScenario(t: TestApp) {
  const source = await nodeWithStandIn(t, 'Source');
  const target = await nodeWithStandIn(t, 'Target');
  const stranger = await createTestNode(t.ctx, { name: 'Stranger' });
  const egg = await importDemoEgg(t.ctx);
  const { user: owner, password } = await createTestUser(t.ctx);
  const { bearer } = await createAdminWithKey(t.ctx);

  /** Free allocations on the node: their ids, in port order. */
  const freeAllocations = async <N extends number>(node: NodeRow, count: N): Promise<Ids<N>> => {
    const ports = Array.from({ length: count }, () => port++);
    await addAllocations(t.db, node.id, '10.9.0.1', ports);
    const rows = await t.db
      .selectFrom('allocations')
      .select('id')
      .where('node_id', '=', node.id)
      .where('ip', '=', '10.9.0.1')
      .where('port', 'in', ports)
      .orderBy('port')
      .execute();
    return rows.map((row) => row.id) as Ids<N>;
  };

  /** A server on the source, installed, with one additional allocation there. */
  const newServer = async (overrides: { memory?: number; disk?: number; status?: string | null } = {}) => {
    const server = await createTestServer(t.ctx, {
      owner,
      node: source.node,
      eggId: egg.id,
      ip: '10.8.0.1',
      port: port++,
      ...overrides,
    });
    await addServerAllocation(t.ctx, server, '10.8.0.1', port++);
    return server;
  };

  const api = (app: FastifyInstance) => ({
    transfer: (serverId: number, body: unknown) =>
      applicationRequest(app, bearer, 'POST', `servers/${serverId}/transfer`, body),
    cancel: (serverId: number) =>
      applicationRequest(app, bearer, 'POST', `servers/${serverId}/transfer/cancel`),
    get: (url: string) => applicationRequest(app, bearer, 'GET', url),
  });

  /** `/api/remote/…` as `node`'s daemon calls it. */
  const remote = (node: NodeRow, method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/api/remote${url}`,
      headers: {
        authorization: `Bearer ${node.daemon_token_id}.${t.ctx.secretBox.open(node.daemon_token)}`,
        accept: 'application/vnd.pterodactyl.v1+json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  /** Where the allocations are: each id → its holder. */
  const holders = async (ids: number[]) => {
    const rows = await t.db
      .selectFrom('allocations')
      .select(['id', 'server_id'])
      .where('id', 'in', ids)
      .execute();
    return Object.fromEntries(rows.map((row) => [row.id, row.server_id]));
  };

  const transfersOf = (serverId: number) =>
    t.db.selectFrom('server_transfers').selectAll().where('server_id', '=', serverId).orderBy('id').execute();

  return {
    source,
    target,
    stranger,
    egg,
    owner,
    ownerPassword: password,
    bearer,
    freeAllocations,
    newServer,
    api: api(t.app),
    remote,
    holders,
    transfersOf,
    clearCalls() {
      source.daemon.calls.length = 0;
      target.daemon.calls.length = 0;
    },
    close: async () => {
      await source.daemon.close();
      await target.daemon.close();
    },
  };
}

export type TransferScenario = Awaited<ReturnType<typeof transferScenario>>;
