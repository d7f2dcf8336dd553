import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { createServerOnNode, startRealNode } from '@aerie/panel/test/real-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The panel drives more than its local daemon: a node made through the Application API, a real `aerie daemon`
 * started from that node's configuration document, and a server created on it through the API, which installs,
 * starts and serves its console and files there, all reached through the panel.
 */

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
    const node = await startRealNode(t, panelUrl, directory, 'Second node');
    ({ daemon } = node);
    const { api, nodeId, daemonPort, configuration } = node;
    const { user: owner, password } = await createTestUser(t.ctx);
    // The daemon installs it, reports back, and starts it (start_on_completion).
    const {
      id,
      uuid,
      identifier,
      node: placedOn,
    } = await createServerOnNode(t, node, {
      name: 'On the second node',
      ownerId: owner.id,
      environment: { MOTD: 'Hello from node two', MAX_PLAYERS: '5' },
      disk: 512,
      startOnCompletion: true,
    });
    expect(placedOn).toBe(nodeId);
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
      headers: { authorization: `Bearer ${configuration.token}` },
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
