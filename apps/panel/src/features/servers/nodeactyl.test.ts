import { createRequire } from 'node:module';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  addSubuser,
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The part of nodeactyl's client this test drives (the package ships no types). */
interface NodeactylClient {
  getAllServers(): Promise<{
    object: string;
    data: { attributes: { identifier: string; name: string } }[];
    meta: unknown;
  }>;
  getServerPage(page: number): Promise<{ attributes: { identifier: string } }[]>;
  getServerDetails(
    id: string,
  ): Promise<{ identifier: string; uuid: string; name: string; limits: { memory: number } }>;
  getServerStatus(id: string): Promise<string>;
  getServerUsages(id: string): Promise<{ current_state: string; resources: { memory_bytes: number } }>;
  getConsoleWebSocket(id: string): Promise<{ token: string; socket: string }>;
}
const { NodeactylClient } = createRequire(import.meta.url)('nodeactyl') as {
  NodeactylClient: new (host: string, key: string) => NodeactylClient;
};

let t: TestApp;
let client: NodeactylClient;
let stranger: NodeactylClient;
let own: ServerRow;
let shared: ServerRow;
let hidden: ServerRow;

beforeAll(async () => {
  t = await buildTestApp();
  const { user } = await createTestUser(t.ctx);
  const { user: other } = await createTestUser(t.ctx);
  // The node's daemon is down (never reached): resources answer Pterodactyl's 502.
  const node = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
  const egg = await importDemoEgg(t.ctx);
  own = await createTestServer(t.ctx, { owner: user, node, eggId: egg.id, name: 'Mine', memory: 768 });
  shared = await createTestServer(t.ctx, { owner: other, node, eggId: egg.id, name: 'Shared with me' });
  hidden = await createTestServer(t.ctx, { owner: other, node, eggId: egg.id, name: 'Not mine' });
  await addSubuser(t.ctx, shared, user, ['websocket.connect', 'control.console']);

  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const key = await t.ctx.apiKeys.create(user, { description: 'nodeactyl', allowedIps: [] });
  client = new NodeactylClient(address, key.key.identifier + key.secret);
  stranger = new NodeactylClient(address, 'ptlc_0000000000000000000000000000000000000000000');
});
afterAll(() => t.close());

describe('nodeactyl against the panel, with a real API key over a real socket', () => {
  it('lists the servers of the key owner', async () => {
    const all = await client.getAllServers();
    expect(all.object).toBe('list');
    expect(all.data.map((item) => item.attributes.name)).toEqual(['Mine', 'Shared with me']);
    const page = await client.getServerPage(1);
    expect(page.map((item) => item.attributes.identifier)).toEqual([own.uuid_short, shared.uuid_short]);
  });

  it('reads one server by its identifier or its full uuid', async () => {
    const byIdentifier = await client.getServerDetails(own.uuid_short);
    expect(byIdentifier).toMatchObject({
      identifier: own.uuid_short,
      uuid: own.uuid,
      name: 'Mine',
      limits: { memory: 768 },
    });
    expect((await client.getServerDetails(shared.uuid)).name).toBe('Shared with me');
  });

  it('reads the resources: a connection error (502, as Pterodactyl) while the daemon was never reached', async () => {
    // Never "offline": the panel cannot know, and a running game must not read as stopped.
    await expect(client.getServerStatus(own.uuid_short)).rejects.toBe(502);
    await expect(client.getServerUsages(shared.uuid_short)).rejects.toBe(502);
  });

  it('gets websocket credentials', async () => {
    const credentials = await client.getConsoleWebSocket(own.uuid_short);
    expect(credentials.socket).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/api/servers/${own.uuid}/ws$`));
    expect(credentials.token.split('.')).toHaveLength(3);
  });

  it('sees the status codes nodeactyl reduces errors to: 404 for a server it cannot see, 401 for a bad key', async () => {
    await expect(client.getServerDetails(hidden.uuid_short)).rejects.toBe(404);
    await expect(stranger.getAllServers()).rejects.toBe(401);
  });
});
