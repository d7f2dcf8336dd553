import { readFileSync } from 'node:fs';
import { demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import type { User } from '@aerie/panel/features/users/user';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  addServerAllocation,
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let owner: User;
let node: NodeRow;
let demo: ServerRow;
let demoEgg: { id: number; uuid: string };

const bearer = (of: NodeRow) => `Bearer ${of.daemon_token_id}.${t.ctx.secretBox.open(of.daemon_token)}`;
const get = (url: string, of: NodeRow = node) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: bearer(of), accept: 'application/json' } });

beforeAll(async () => {
  t = await buildTestApp();
  ({ user: owner } = await createTestUser(t.ctx));
  node = await createTestNode(t.ctx, { name: 'Home node' });
  demoEgg = await importDemoEgg(t.ctx);
  demo = await createTestServer(t.ctx, {
    owner,
    node,
    eggId: demoEgg.id,
    name: 'Demo',
    description: 'Chat game',
    ip: '127.0.0.1',
    port: 25565,
    memory: 512,
    disk: 1024,
    cpu: 150,
    swap: -1,
    io: 700,
    threads: '0-1',
    allocationLimit: 3,
    environment: { MOTD: 'Hello from the test' },
  });
  await addServerAllocation(t.ctx, demo, '127.0.0.1', 25570);
  await addServerAllocation(t.ctx, demo, '10.1.1.1', 25566);
});
afterAll(() => t.close());

describe('GET /api/remote/servers/{uuid}', () => {
  it('gives the daemon the demo server as it must run it, from the real demo egg', async () => {
    const response = await get(`/api/remote/servers/${demo.uuid}`);
    expect(response.statusCode).toBe(200);
    const egg = JSON.parse(readFileSync(demoEggPath, 'utf8')) as { startup: string };
    expect(response.json()).toEqual({
      settings: {
        uuid: demo.uuid,
        meta: { name: 'Demo', description: 'Chat game' },
        suspended: false,
        environment: {
          MOTD: 'Hello from the test',
          MAX_PLAYERS: '10',
          P_SERVER_LOCATION: 'Home node',
          P_SERVER_UUID: demo.uuid,
          P_SERVER_ALLOCATION_LIMIT: 3,
        },
        invocation: egg.startup,
        skip_egg_scripts: false,
        build: {
          memory_limit: 512,
          swap: -1,
          io_weight: 700,
          cpu_limit: 150,
          threads: '0-1',
          disk_space: 1024,
          oom_disabled: true,
        },
        container: { image: 'node:20-bookworm-slim' },
        allocations: {
          force_outgoing_ip: false,
          default: { ip: '127.0.0.1', port: 25565 },
          mappings: { '127.0.0.1': [25565, 25570], '10.1.1.1': [25566] },
        },
        mounts: [],
        egg: { id: demoEgg.uuid, file_denylist: [] },
        labels: {},
      },
      process_configuration: {
        startup: { done: ['Server started on '], user_interaction: [], strip_ansi: false },
        stop: { type: 'command', value: 'stop' },
        configs: [],
      },
    } satisfies DaemonServerConfiguration);
  });

  it("turns the egg's stop signal, done list and config files into the daemon's form, inheriting config_from", async () => {
    const parent = await importDemoEgg(t.ctx, 'Parent nest');
    await t.db
      .updateTable('eggs')
      .set({
        config_stop: '^C',
        config_startup: JSON.stringify({ done: ['Ready', 'regex:^Done \\('], strip_ansi: true }),
        config_files: JSON.stringify({
          'server.properties': {
            parser: 'properties',
            find: {
              'server-ip': '0.0.0.0',
              'server-port': '{{server.build.default.port}}',
              motd: '{{server.build.env.MOTD}} on {{env.MAX_PLAYERS}} / {{config.docker.interface}}',
              'enable-query': { true: 'false' },
            },
          },
          'broken.yml': 'not an object',
          'no-find.yml': { parser: 'yaml' },
        }),
        file_denylist: JSON.stringify(['*.jar']),
      })
      .where('id', '=', parent.id)
      .execute();
    const child = await importDemoEgg(t.ctx, 'Child nest');
    await t.db
      .updateTable('eggs')
      .set({ config_from: parent.id, config_stop: null, config_startup: null, config_files: null })
      .where('id', '=', child.id)
      .execute();
    const server = await createTestServer(t.ctx, {
      owner,
      node,
      eggId: child.id,
      ip: '10.0.0.9',
      port: 27015,
    });
    const body = (await get(`/api/remote/servers/${server.uuid}`)).json() as DaemonServerConfiguration;
    expect(body.settings.egg.file_denylist).toEqual(['*.jar']);
    expect(body.process_configuration).toEqual({
      startup: { done: ['Ready', 'regex:^Done \\('], user_interaction: [], strip_ansi: true },
      stop: { type: 'signal', value: 'SIGINT' },
      configs: [
        {
          file: 'server.properties',
          parser: 'properties',
          replace: [
            { match: 'server-ip', replace_with: '0.0.0.0' },
            { match: 'server-port', replace_with: '27015' },
            {
              match: 'motd',
              replace_with: 'Welcome to the Aerie demo server! on 10 / {{config.docker.interface}}',
            },
            { match: 'enable-query', if_value: 'true', replace_with: 'false' },
          ],
        },
      ],
    });
  });

  it('says a suspended server is suspended', async () => {
    const server = await createTestServer(t.ctx, { owner, node, eggId: demoEgg.id, status: 'suspended' });
    const body = (await get(`/api/remote/servers/${server.uuid}`)).json() as DaemonServerConfiguration;
    expect(body.settings.suspended).toBe(true);
  });
});

describe('GET /api/remote/servers', () => {
  it("pages through the calling node's servers only, 50 a page unless asked", async () => {
    const other = await createTestNode(t.ctx);
    const own = [];
    for (let i = 0; i < 3; i++)
      own.push(await createTestServer(t.ctx, { owner, node: other, eggId: demoEgg.id }));
    await createTestServer(t.ctx, { owner, node, eggId: demoEgg.id });

    const all = (await get('/api/remote/servers', other)).json();
    expect(all.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 3 });
    expect(all.data.map((entry: { uuid: string }) => entry.uuid)).toEqual(own.map((s) => s.uuid));
    const first = all.data[0] as DaemonServerConfiguration & { uuid: string };
    expect(first.settings.uuid).toBe(own[0]?.uuid);
    expect(first.process_configuration.stop).toEqual({ type: 'command', value: 'stop' });

    const page1 = (await get('/api/remote/servers?page=1&per_page=2', other)).json();
    expect(page1.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
    expect(page1.data).toHaveLength(2);
    const page2 = (await get('/api/remote/servers?page=2&per_page=2', other)).json();
    expect(page2.data.map((entry: { uuid: string }) => entry.uuid)).toEqual([own[2]?.uuid]);
    const beyond = (await get('/api/remote/servers?page=9&per_page=2', other)).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.meta.total).toBe(3);

    const odd = (await get('/api/remote/servers?page=abc&per_page=-4', other)).json();
    expect(odd.meta).toMatchObject({ current_page: 1, per_page: 50 });
    expect((await get('/api/remote/servers?per_page=5000', other)).json().meta.per_page).toBe(100);
  });
});
