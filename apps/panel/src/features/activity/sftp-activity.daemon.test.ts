import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { opensshAvailable, runSftpBatch } from '@aerie/daemon/sftp/testing/openssh-sftp';
import { call, openSftp } from '@aerie/daemon/sftp/testing/sftp-stand';
import { type DaemonProcess, startDaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { createServerOnNode, type RealNode, startRealNode } from '@aerie/panel/test/real-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SFTP activity end to end: this panel, a real `aerie daemon` started from its node's configuration document, real
 * SFTP clients (ssh2's, OpenSSH's `sftp -b`). What a user does over SFTP is kept in the daemon's outbox, survives
 * the daemon being killed (-9) before it shipped anything, and is in the server's activity log once the next
 * daemon ships it through `POST /api/remote/activity`, with the user as actor and their address.
 */
// biome-ignore lint/suspicious/noExplicitAny: entries are read the way a client reads them.
type Entry = Record<string, any>;

let t: TestApp;
let directory: string;
let node: RealNode;
let daemon: DaemonProcess;
let browser: TestBrowser;
let username: string;
let password: string;
let serverIdentifier: string;

const outboxLines = async () =>
  (await readFile(path.join(directory, 'daemon', 'activity-outbox.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean).length;
const serverLog = async (): Promise<Entry[]> => {
  const response = await browser.get(
    `/api/client/servers/${serverIdentifier}/activity?include=actor&per_page=100`,
  );
  expect(response.statusCode).toBe(200);
  return response.json().data.map((item: { attributes: Entry }) => item.attributes);
};

beforeAll(async () => {
  t = await buildTestApp();
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-sftp-activity-e2e-'));
});
afterAll(async () => {
  daemon?.process.kill('SIGINT');
  await daemon?.exited;
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

describe('SFTP activity through a real daemon', { timeout: 120_000 }, () => {
  it('logs a login, a write, a rename and a delete made over SFTP, after a kill -9 of the daemon', async () => {
    const panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    // The first daemon would ship in an hour: nothing leaves its outbox before it is killed.
    node = await startRealNode(t, panelUrl, directory, 'Activity node', {
      DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS: '3600',
    });
    daemon = node.daemon;
    const owner = await createTestUser(t.ctx);
    ({ password } = owner);
    browser = new TestBrowser(t.app);
    await browser.signIn(owner.user.username, password);
    const server = await createServerOnNode(t, node, {
      name: 'SFTP activity',
      ownerId: owner.user.id,
      skipScripts: true,
    });
    serverIdentifier = server.identifier;
    username = `${owner.user.username}.${serverIdentifier}`;

    const client = await openSftp(node.sftpPort, { username, password });
    const handle = await call<Buffer>(client.sftp, 'open', '/server.properties', 'w');
    for (let i = 0; i < 20; i++)
      await call(client.sftp, 'write', handle, Buffer.from(`line ${i}\n`), 0, 7, i * 7);
    await call(client.sftp, 'close', handle);
    await call(client.sftp, 'mkdir', '/config');
    await call(client.sftp, 'rename', '/server.properties', '/config/server.properties');
    await call(client.sftp, 'unlink', '/config/server.properties');
    client.end();
    await expect.poll(outboxLines, { timeout: 10_000 }).toBe(5);

    daemon.process.kill('SIGKILL');
    await daemon.exited;
    expect(await serverLog()).toEqual([]);

    // The next daemon, from the same document and data, ships every second.
    daemon = startDaemonProcess({
      DAEMON_CONFIG: path.join(directory, 'node.json'),
      DAEMON_HOST: '127.0.0.1',
      DAEMON_DATA_DIR: path.join(directory, 'daemon'),
      LOG_LEVEL: 'warn',
      DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS: '1',
    });
    await daemon.listening();
    await expect.poll(async () => (await serverLog()).length, { timeout: 20_000 }).toBe(5);
    const entries = await serverLog();
    expect(entries.map((entry) => [entry.event, entry.properties.files])).toEqual([
      ['server:sftp.delete', ['/config/server.properties']],
      ['server:sftp.rename', [{ from: '/server.properties', to: '/config/server.properties' }]],
      ['server:sftp.create-directory', ['/config']],
      ['server:sftp.create', ['/server.properties']],
      ['server:sftp.login', undefined],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        ip: '127.0.0.1',
        is_api: false,
        relationships: { actor: { object: 'user', attributes: { uuid: owner.user.uuid } } },
      });
    }
    expect(entries[1]).toMatchObject({ description: null, properties: { count: 1 } });
    // Shipped rows leave the outbox.
    await expect.poll(outboxLines, { timeout: 10_000 }).toBe(0);
  });

  it('logs an upload by OpenSSH’s sftp as one entry, however many packets', async () => {
    if (!(await opensshAvailable()) && process.env.CI !== 'true') return;
    const local = await mkdtemp(path.join(tmpdir(), 'aerie-sftp-activity-local-'));
    try {
      await writeFile(path.join(local, 'world.bin'), Buffer.alloc(2 * 1024 * 1024, 7));
      const before = (await serverLog()).length;
      const outcome = await runSftpBatch({
        port: node.sftpPort,
        username,
        password,
        cwd: local,
        commands: ['put world.bin world.bin', 'put world.bin world.bin'],
      });
      expect(outcome.code, outcome.output).toBe(0);
      await expect.poll(async () => (await serverLog()).length, { timeout: 20_000 }).toBe(before + 3);
      const entries = (await serverLog()).slice(0, 3);
      expect(entries.map((entry) => [entry.event, entry.properties.files])).toEqual([
        ['server:sftp.write', ['/world.bin']],
        ['server:sftp.create', ['/world.bin']],
        ['server:sftp.login', undefined],
      ]);
    } finally {
      await rm(local, { recursive: true, force: true });
    }
  });
});
