import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  crashAndRestartNode,
  createServerOnNode,
  type Json,
  type RealNode,
  startRealNode,
} from '@aerie/panel/test/real-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The whole stack: this panel and two real `aerie daemon` processes, each started from its own node's configuration
 * document with its own data directory and ports. A server with files, variables, a subuser, a schedule and a local
 * backup moves from node A to node B and back through the Application API; its console socket and file calls follow
 * it; its backup, left on A, still downloads and restores. Then each daemon is killed (-9) in the middle of a
 * transfer: the server stays whole on the source and runs again, and the panel shows the transfer failed.
 */

let t: TestApp;
let panelUrl: string;
let directory: string;
const nodes: RealNode[] = [];

beforeAll(async () => {
  t = await buildTestApp({ env: { BACKUP_THROTTLE_PERIOD: '0' } });
  panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-transfer-nodes-'));
});
afterAll(async () => {
  for (const node of nodes) node.daemon.process.kill('SIGKILL');
  await Promise.all(nodes.map((node) => node.daemon.exited));
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

const folder = (name: string) => path.join(directory, name);

describe('moving a server between two real nodes', () => {
  it('moves it there and back with everything it has, then survives a kill -9 of either node mid-stream', {
    timeout: 300_000,
  }, async () => {
    await mkdir(folder('a'));
    await mkdir(folder('b'));
    // Both nodes send at 1 MiB/s, so a kill lands in the middle of the 6 MiB of random (incompressible) bytes below.
    const a = await startRealNode(t, panelUrl, folder('a'), 'Node A', { DAEMON_TRANSFER_LIMIT_MB: '1' });
    nodes.push(a);
    const b = await startRealNode(t, panelUrl, folder('b'), 'Node B', { DAEMON_TRANSFER_LIMIT_MB: '1' });
    nodes.push(b);
    const { api } = a;
    const { user: owner, password } = await createTestUser(t.ctx);
    const server = await createServerOnNode(t, a, {
      name: 'Travelling',
      ownerId: owner.id,
      environment: { MOTD: 'Moved intact', MAX_PLAYERS: '7' },
    });
    await t.db.updateTable('servers').set({ backup_limit: 2 }).where('id', '=', server.id).execute();
    const browser = new TestBrowser(t.app);
    await browser.signIn(owner.username, password);
    const base = `/api/client/servers/${server.identifier}`;
    const write = (file: string, text: string) =>
      browser.send('POST', `${base}/files/write?file=${encodeURIComponent(file)}`, text, {
        headers: { 'content-type': 'text/plain' },
      });
    const contents = async (file: string) =>
      (await browser.get(`${base}/files/contents?file=${encodeURIComponent(file)}`)).body;
    const view = async () =>
      (await api('GET', `servers/${server.id}?include=transfer`)).body.attributes as Json;
    const state = async () =>
      (await browser.get(`${base}/resources`)).json().attributes.current_state as string;
    const power = async (signal: string) =>
      expect((await browser.post(`${base}/power`, { signal })).statusCode).toBe(204);
    const freeAllocation = async (node: RealNode) =>
      (await api('GET', `nodes/${node.nodeId}/allocations?filter[server_id]=0`)).body.data[0].attributes
        .id as number;
    const transfer = async (to: RealNode) =>
      api('POST', `servers/${server.id}/transfer`, {
        node_id: to.nodeId,
        allocation_id: await freeAllocation(to),
      });
    const settled = async () => {
      await expect
        .poll(async () => (await view()).relationships.transfer.attributes.successful, {
          timeout: 90_000,
          interval: 250,
        })
        .not.toBeNull();
      return (await view()).relationships.transfer.attributes as Json;
    };

    expect((await write('/notes.txt', 'written on node A')).statusCode).toBe(204);
    const subuser = await createTestUser(t.ctx);
    const added = await browser.post(`${base}/users`, {
      email: subuser.user.email,
      permissions: ['control.console', 'file.read'],
    });
    expect(added.statusCode, added.body).toBe(200);
    const schedule = await browser.post(`${base}/schedules`, {
      name: 'Nightly',
      minute: '0',
      hour: '3',
      day_of_month: '*',
      month: '*',
      day_of_week: '*',
      is_active: true,
    });
    expect(schedule.statusCode, schedule.body).toBe(200);
    const backup = (await browser.post(`${base}/backups`, { name: 'Before the move' })).json().attributes;
    await expect
      .poll(
        async () => (await browser.get(`${base}/backups/${backup.uuid}`)).json().attributes.completed_at,
        {
          timeout: 60_000,
          interval: 250,
        },
      )
      .not.toBeNull();
    await power('start');
    await expect.poll(state, { timeout: 60_000, interval: 250 }).toBe('running');

    // A → B.
    const started = await transfer(b);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await browser.get(base)).json().attributes.is_transferring).toBe(true);
    expect(await settled()).toMatchObject({ successful: true, old_node: a.nodeId, new_node: b.nodeId });
    expect((await view()).node).toBe(b.nodeId);
    expect((await browser.get(base)).json().attributes.is_transferring).toBe(false);
    // Gone from A, whole on B, stopped there until someone starts it.
    await expect(stat(path.join(folder('a'), 'daemon', 'volumes', server.uuid))).rejects.toThrow();
    expect(await contents('/notes.txt')).toBe('written on node A');
    // (The panel's short cache of the old node's figures may answer first.)
    await expect.poll(state, { timeout: 10_000, interval: 250 }).toBe('offline');
    const socket = (await browser.get(`${base}/websocket`)).json().data.socket as string;
    expect(socket).toBe(`ws://127.0.0.1:${b.daemonPort}/api/servers/${server.uuid}/ws`);
    const startup = (await browser.get(`${base}/startup`)).json().data;
    expect(
      startup.map((variable: Json) => [variable.attributes.env_variable, variable.attributes.server_value]),
    ).toContainEqual(['MOTD', 'Moved intact']);
    expect((await browser.get(`${base}/users`)).json().data).toHaveLength(1);
    expect((await browser.get(`${base}/schedules`)).json().data).toHaveLength(1);

    // The backup stayed on A: it still downloads from there, and restores on B from there.
    const link = (await browser.get(`${base}/backups/${backup.uuid}/download`)).json().attributes
      .url as string;
    expect(link.startsWith(`http://127.0.0.1:${a.daemonPort}/`)).toBe(true);
    expect((await fetch(link)).status).toBe(200);
    expect((await write('/notes.txt', 'changed on node B')).statusCode).toBe(204);
    const restore = await browser.post(`${base}/backups/${backup.uuid}/restore`, { truncate: true });
    expect(restore.statusCode, restore.body).toBe(204);
    await expect
      .poll(async () => (await browser.get(base)).json().attributes.status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBeNull();
    expect(await contents('/notes.txt')).toBe('written on node A');

    // B → A, and it runs there.
    expect((await transfer(a)).status).toBe(202);
    expect(await settled()).toMatchObject({ successful: true, new_node: a.nodeId });
    expect(await contents('/notes.txt')).toBe('written on node A');
    await power('start');
    await expect.poll(state, { timeout: 60_000, interval: 250 }).toBe('running');

    // kill -9 of the target (B) mid-stream: the server runs on A again, the transfer failed, B keeps nothing.
    await writeFile(
      path.join(folder('a'), 'daemon', 'volumes', server.uuid, 'world.bin'),
      randomBytes(6 * 1024 ** 2),
    );
    expect((await transfer(b)).status).toBe(202);
    const staging = path.join(folder('b'), 'daemon', 'transfers', server.uuid);
    const receiving = () =>
      expect
        .poll(
          () =>
            stat(staging).then(
              () => true,
              () => false,
            ),
          { timeout: 30_000 },
        )
        .toBe(true);
    await receiving();
    await crashAndRestartNode(b, async () => {
      expect(await settled()).toMatchObject({ successful: false });
      expect((await view()).node).toBe(a.nodeId);
      await expect.poll(state, { timeout: 60_000, interval: 250 }).toBe('running');
    });
    expect(await readdir(path.join(folder('b'), 'daemon', 'transfers'))).toEqual([]);

    // kill -9 of the source (A) mid-stream: the next A runs the server as before, the transfer failed.
    expect((await transfer(b)).status).toBe(202);
    await receiving();
    await crashAndRestartNode(a, async () => {
      expect(await settled()).toMatchObject({ successful: false });
    });
    expect((await view()).node).toBe(a.nodeId);
    await expect.poll(state, { timeout: 60_000, interval: 250 }).toBe('running');
    expect(await contents('/notes.txt')).toBe('written on node A');
    await expect
      .poll(() => readdir(path.join(folder('b'), 'daemon', 'transfers')), { timeout: 30_000 })
      .toEqual([]);
    await power('kill');
  });
});
