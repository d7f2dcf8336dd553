import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DaemonProcess, startDaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { createAdminWithKey } from '@aerie/panel/test/application-api';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { createTestUser } from '@aerie/panel/test/factories';
import { importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The panel drives more than its local daemon: a node made through the Application API, a real `aerie daemon`
 * started from that node's configuration document, and a server created on it through the API, which installs,
 * starts and serves its console and files there, all reached through the panel.
 */
// biome-ignore lint/suspicious/noExplicitAny: answers are read the way a script reads them.
type Json = Record<string, any>;

let t: TestApp;
let panelUrl: string;
let directory: string;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-second-node-'));
});
afterAll(async () => {
  // SIGINT stops the daemon's game servers with it (SIGTERM would leave them running for the next daemon).
  daemon?.process.kill('SIGINT');
  await daemon?.exited;
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

describe('a second node', () => {
  it('runs a server created on it through the Application API', { timeout: 120_000 }, async () => {
    const { bearer } = await createAdminWithKey(t.ctx);
    const api = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${panelUrl}/api/application/${url}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return {
        status: response.status,
        body: (response.status === 204 ? {} : await response.json()) as Json,
      };
    };

    const location = await api('POST', 'locations', { short: 'second' });
    const daemonPort = await closedPort();
    const node = await api('POST', 'nodes', {
      name: 'Second node',
      location_id: location.body.attributes.id,
      fqdn: '127.0.0.1',
      scheme: 'http',
      memory: 4096,
      memory_overallocate: 0,
      disk: 10240,
      disk_overallocate: 0,
      daemon_listen: daemonPort,
      daemon_sftp: 2022,
    });
    expect(node.status).toBe(201);
    const nodeId = node.body.attributes.id;
    const gamePort = await closedPort();
    expect(
      (await api('POST', `nodes/${nodeId}/allocations`, { ip: '127.0.0.1', ports: [String(gamePort)] }))
        .status,
    ).toBe(204);
    const configuration = await api('GET', `nodes/${nodeId}/configuration`);
    const file = path.join(directory, 'node.json');
    await writeFile(file, JSON.stringify(configuration.body), { mode: 0o600 });
    daemon = startDaemonProcess({
      DAEMON_CONFIG: file,
      DAEMON_HOST: '127.0.0.1',
      DAEMON_DATA_DIR: path.join(directory, 'daemon'),
      LOG_LEVEL: 'warn',
    });
    expect(await daemon.listening()).toBe(`http://127.0.0.1:${daemonPort}`);

    const { user: owner, password } = await createTestUser(t.ctx);
    const egg = await importDemoEgg(t.ctx, 'Second node nest');
    const allocation = (await api('GET', `nodes/${nodeId}/allocations`)).body.data[0].attributes.id;
    const created = await api('POST', 'servers', {
      name: 'On the second node',
      user: owner.id,
      egg: egg.id,
      docker_image: 'node:20-bookworm-slim',
      startup: 'node demo-server.mjs',
      environment: { MOTD: 'Hello from node two', MAX_PLAYERS: '5' },
      limits: { memory: 256, swap: 0, disk: 512, io: 500, cpu: 0 },
      feature_limits: { databases: 0, allocations: 1, backups: 0 },
      allocation: { default: allocation },
      start_on_completion: true,
    });
    expect(created.status).toBe(201);
    const { id, uuid, identifier } = created.body.attributes;
    expect(created.body.attributes.node).toBe(nodeId);

    // The daemon installs it, reports back, and starts it (start_on_completion).
    await expect
      .poll(async () => (await api('GET', `servers/${id}`)).body.attributes.status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBeNull();
    const browser = new TestBrowser(t.app);
    await browser.signIn(owner.username, password);
    await expect
      .poll(
        async () =>
          (await browser.get(`/api/client/servers/${identifier}/resources`)).json().attributes?.current_state,
        {
          timeout: 60_000,
          interval: 250,
        },
      )
      .toBe('running');

    // Console: the game's own lines, kept by the daemon of the second node.
    const logs = await fetch(`http://127.0.0.1:${daemonPort}/api/servers/${uuid}/logs`, {
      headers: { authorization: `Bearer ${configuration.body.token}` },
    });
    expect(((await logs.json()) as { data: string[] }).data.join('\n')).toContain('Server started on ');

    // Files: written and read through the panel, stored on the second node.
    const write = await browser.send(
      'POST',
      `/api/client/servers/${identifier}/files/write?file=%2Fnote.txt`,
      'from the panel',
      {
        headers: { 'content-type': 'text/plain' },
      },
    );
    expect(write.statusCode).toBe(204);
    const read = await browser.get(`/api/client/servers/${identifier}/files/contents?file=%2Fnote.txt`);
    expect(read.body).toBe('from the panel');
    const listed = await browser.get(`/api/client/servers/${identifier}/files/list?directory=%2F`);
    expect(listed.json().data.map((item: { attributes: { name: string } }) => item.attributes.name)).toEqual(
      expect.arrayContaining(['demo-server.mjs', 'note.txt']),
    );

    // Suspension through the API reaches the second node at once.
    expect((await api('POST', `servers/${id}/suspend`)).status).toBe(204);
    await expect
      .poll(async () => (await browser.get(`/api/client/servers/${identifier}/resources`)).statusCode, {
        timeout: 30_000,
      })
      .toBe(409);
  });
});
