import { addAllocations } from '@aerie/panel/features/nodes/nodes.service';
import {
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
  await daemon?.close();
});

describe('GET /api/application/overview', () => {
  it("shows each node's daemon health and the servers counted by state", async () => {
    const { admin, bearer } = await createAdminWithKey(t.ctx);
    const online = await createTestNode(t.ctx, { name: 'Up' });
    daemon = await startDaemonStandIn({
      token: t.ctx.secretBox.open(online.daemon_token),
      answer: (call) =>
        call.path === '/api/system'
          ? { status: 200, body: { version: '1.2.3', cpu_count: 8, memory_bytes: 16 * 1024 ** 3 } }
          : undefined,
    });
    await t.db
      .updateTable('nodes')
      .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
      .where('id', '=', online.id)
      .execute();
    const offline = await createTestNode(t.ctx, { name: 'Down', fqdn: '127.0.0.1', daemonListen: 1 });
    const { user } = await createTestUser(t.ctx);
    const egg = await importDemoEgg(t.ctx);
    await createTestServer(t.ctx, { owner: user, node: online, eggId: egg.id });
    await createTestServer(t.ctx, { owner: user, node: online, eggId: egg.id, status: 'suspended' });
    await addAllocations(t.db, offline.id, '10.0.0.9', [30001]);

    const response = await applicationRequest(t.app, bearer, 'GET', 'overview');
    expect(response.statusCode).toBe(200);
    const { attributes } = response.json();
    expect(attributes.version).toBe('0.1.0');
    expect(attributes.nodes).toEqual([
      expect.objectContaining({
        id: online.id,
        name: 'Up',
        online: true,
        version: '1.2.3',
        cpu_count: 8,
        memory_bytes: 16 * 1024 ** 3,
      }),
      expect.objectContaining({ id: offline.id, name: 'Down', online: false, version: null }),
    ]);
    expect(attributes.servers).toEqual({ total: 2, by_status: { normal: 1, suspended: 1 } });

    const noNodes = await createApplicationBearer(t.ctx, admin, { nodes: 0 });
    expect((await applicationRequest(t.app, noNodes, 'GET', 'overview')).statusCode).toBe(403);
  });
});
