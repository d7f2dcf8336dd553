import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { JWT_ERROR_MESSAGES } from '@aerie/daemon/auth/jwt-errors';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { signedFileRoutes } from '@aerie/daemon/http/signed-file-routes';
import { NOT_FOUND_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import { TOKEN_USED_MESSAGE } from '@aerie/daemon/http-kit/signed-file-token';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import { RESTORING_MESSAGE } from '@aerie/daemon/server/managed-server';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import {
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { consoleWebsocketPlugins } from '@aerie/daemon/websocket/daemon-plugins';
import { TestSocket } from '@aerie/daemon/websocket/testing/test-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_BODY_MESSAGES } from './backup-routes';
import { BackupService, restoreCompletedMessage } from './backup-service';
import { buildTarGz, listTarGz, sha1 } from './testing-archive';

const UUID = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
/** A server with a 1 MiB disk limit, for the archive bigger than the quota. */
const SMALL = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const OTHER_NODE_SERVER = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
let panel: PanelStandIn;
let daemon: TestDaemon;
let dataDirectory: string;
let outside: string;
const sockets: TestSocket[] = [];
const root = (uuid = UUID) => path.join(dataDirectory, 'volumes', uuid);
const onDisk = (name: string, uuid = UUID) => path.join(root(uuid), name);

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  panel.servers.set(SMALL, fileServerConfiguration(SMALL, { diskMb: 1 }));
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-backups-'));
  outside = await mkdtemp(path.join(tmpdir(), 'aerie-backups-outside-'));
  const client = new PanelClient({
    url: panel.url,
    tokenId: PANEL_TOKEN_ID,
    token: PANEL_TOKEN,
    retryForMs: 2000,
    firstRetryDelayMs: 50,
  });
  const backups = new BackupService({
    directory: path.join(dataDirectory, 'backups'),
    panel: client,
    log: () => {},
    restoreStopTimeoutMs: 10_000,
  });
  // Tokens are signed in the boot second: count the boot a minute earlier.
  const denylist = new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) });
  daemon = await startTestDaemon({
    panel,
    dataDirectory,
    backups,
    plugins: {
      ...consoleWebsocketPlugins({ denylist }),
      ...signedFileRoutes({ dataDirectory, uploadLimitMb: 1, denylist, backups }),
    },
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await daemon.close();
  await panel.close();
  await rm(outside, { recursive: true, force: true });
});

const startBackup = (body: Record<string, unknown>, uuid = UUID) =>
  daemon.request('POST', `/api/servers/${uuid}/backup`, { body: { adapter: 'wings', ignore: '', ...body } });
const restore = (backup: string, body: Record<string, unknown>, uuid = UUID) =>
  daemon.request('POST', `/api/servers/${uuid}/backup/${backup}/restore`, {
    body: { adapter: 'wings', truncate_directory: false, download_url: null, ...body },
  });
const archiveOf = (backup: string) => path.join(dataDirectory, 'backups', `${backup}.tar.gz`);

/** Makes a local backup and waits for the panel to hear of it. */
async function backupNow(ignore = '', uuid = UUID) {
  const backup = randomUUID();
  expect((await startBackup({ uuid: backup, ignore }, uuid)).status).toBe(202);
  return { backup, report: await panel.waitForBackupReport(backup) };
}

async function connect(permissions: string[], uuid = UUID) {
  const socket = await TestSocket.open(`${daemon.url.replace('http', 'ws')}/api/servers/${uuid}/ws`, {
    origin: panel.url,
  });
  sockets.push(socket);
  await socket.auth(
    await signTestToken({ server_uuid: uuid, permissions, jti: randomUUID() }, { key: NODE_TOKEN }),
  );
  return socket;
}

describe('POST /api/servers/{uuid}/backup (wings adapter)', () => {
  it('archives the files as the ignore rules say, reports checksum and size, and tells backup.read sockets', async () => {
    await mkdir(onDisk('world'), { recursive: true });
    await mkdir(onDisk('logs'), { recursive: true });
    await writeFile(onDisk('server.properties'), 'motd=backed up\n');
    await writeFile(onDisk('world/level.dat'), Buffer.alloc(50_000, 3));
    await writeFile(onDisk('logs/latest.log'), 'noise');
    await writeFile(onDisk('logs/keep.log'), 'kept');
    await writeFile(onDisk('.pteroignore'), 'world\n');
    const reader = await connect(['websocket.connect', 'backup.read']);
    const blind = await connect(['websocket.connect', 'control.console']);
    const blindFrom = blind.messages.length;

    const backup = randomUUID();
    const event = reader.next(`backup completed:${backup}`, () => true, 20_000);
    // Wings clients listen for the plain name (its bus strips the suffix), ours for the one naming the backup.
    const plain = reader.next('backup completed', () => true, 20_000);
    expect((await startBackup({ uuid: backup, ignore: 'logs/*\n!logs/keep.log' })).status).toBe(202);
    const report = await panel.waitForBackupReport(backup);
    const bytes = await readFile(archiveOf(backup));
    expect(report).toEqual({
      successful: true,
      checksum: sha1(bytes),
      checksum_type: 'sha1',
      size: bytes.length,
      parts: null,
    });
    // The request's rules replace .pteroignore: world is in, logs only keep.log.
    const names = (await listTarGz(bytes)).map((entry) => entry.name);
    expect(names).toEqual([
      '.pteroignore',
      'logs',
      'logs/keep.log',
      'server.properties',
      'world',
      'world/level.dat',
    ]);

    const received = await event;
    expect((await plain).args).toEqual(received.args);
    expect(JSON.parse(received.args?.[0] ?? '')).toEqual({
      uuid: backup,
      is_successful: true,
      checksum: sha1(bytes),
      checksum_type: 'sha1',
      file_size: bytes.length,
    });
    // The socket without backup.read heard nothing of it (it gets other events: a later one arrives first).
    const marker = blind.next('daemon message', (args) => args[0]?.includes('marker') ?? false);
    daemon.manager.get(UUID)?.announce('marker');
    await marker;
    expect(blind.events(blindFrom).filter((name) => name.startsWith('backup completed'))).toEqual([]);
    await rm(onDisk('logs'), { recursive: true });
  });

  it('reads .pteroignore when the request has no rules, but not a linked or oversized one', async () => {
    await writeFile(onDisk('.pteroignore'), '# big folders\nworld\n');
    const honoured = await backupNow();
    expect((await listTarGz(archiveOf(honoured.backup))).map((e) => e.name)).not.toContain('world/level.dat');

    await writeFile(path.join(outside, 'rules'), 'world\n');
    await rm(onDisk('.pteroignore'));
    await symlink(path.join(outside, 'rules'), onDisk('.pteroignore'));
    const linked = await backupNow();
    const linkedNames = (await listTarGz(archiveOf(linked.backup))).map((e) => e.name);
    expect(linkedNames).toContain('world/level.dat');
    // A link to a host path is outside the server's files: left out, as a restore would refuse it.
    expect(linkedNames).not.toContain('.pteroignore');

    await rm(onDisk('.pteroignore'));
    await writeFile(onDisk('.pteroignore'), `world\n${'#'.repeat(33 * 1024)}\n`);
    const oversized = await backupNow();
    expect((await listTarGz(archiveOf(oversized.backup))).map((e) => e.name)).toContain('world/level.dat');
    await rm(onDisk('.pteroignore'));
  });

  it('succeeds while the game appends to a file during the backup', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE((i * 2654435761) >>> 0, i);
    await writeFile(onDisk('big.bin'), big);
    await writeFile(onDisk('growing.log'), 'start\n');
    let writing = true;
    const appender = (async () => {
      while (writing) {
        await writeFile(onDisk('growing.log'), 'more lines\n'.repeat(500), { flag: 'a' });
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const { backup, report } = await backupNow();
    writing = false;
    await appender;
    expect(report.successful).toBe(true);
    const entries = await listTarGz(archiveOf(backup));
    expect(entries.find((e) => e.name === 'big.bin')?.data.equals(big)).toBe(true);
    const growing = entries.find((e) => e.name === 'growing.log');
    expect(growing?.data.toString('utf8').startsWith('start\n')).toBe(true);
    await rm(onDisk('big.bin'));
    await rm(onDisk('growing.log'));
  });

  it('refuses a bad body with 422 and an unknown server with 404', async () => {
    expect(await startBackup({ uuid: randomUUID(), adapter: 'ftp' })).toMatchObject({
      status: 422,
      body: { error: BACKUP_BODY_MESSAGES.adapter },
    });
    expect(await startBackup({ uuid: '../../etc' })).toMatchObject({
      status: 422,
      body: { error: BACKUP_BODY_MESSAGES.uuid },
    });
    expect((await startBackup({ uuid: randomUUID() }, OTHER_NODE_SERVER)).status).toBe(404);
    expect((await startBackup({ uuid: randomUUID() }, UUID)).status).toBe(202);
  });
});

describe('restore', () => {
  it('puts the files back over the current ones, keeping the others, then with truncate removes them', async () => {
    await writeFile(onDisk('server.properties'), 'motd=original\n');
    await mkdir(onDisk('plugins'), { recursive: true });
    await writeFile(onDisk('plugins/a.jar'), 'jar a');
    // An empty folder the game expects to find (a world's `data`, a `logs` it writes into) comes back too.
    await mkdir(onDisk('world/data'), { recursive: true });
    const { backup } = await backupNow();
    const atBackup = (await readdir(root())).sort();
    await writeFile(onDisk('server.properties'), 'motd=changed\n');
    await rm(onDisk('plugins/a.jar'));
    await writeFile(onDisk('new-since.txt'), 'made after the backup');

    const server = daemon.manager.get(UUID);
    const socket = await connect(['websocket.connect']);
    const said: string[] = [];
    server?.on('daemon message', (line) => said.push(line));
    const completed = socket.next('backup restore completed', () => true, 20_000);
    expect((await restore(backup, {})).status).toBe(202);
    expect(await panel.waitForRestoreReport(backup)).toEqual({ successful: true });
    await completed;
    expect(await readFile(onDisk('server.properties'), 'utf8')).toBe('motd=original\n');
    expect(await readFile(onDisk('plugins/a.jar'), 'utf8')).toBe('jar a');
    expect(await readFile(onDisk('new-since.txt'), 'utf8')).toBe('made after the backup');
    expect(said.some((line) => line.endsWith(restoreCompletedMessage('wings')))).toBe(true);
    expect(restoreCompletedMessage('wings')).toBe('Completed server restoration from wings backup.');

    panel.restoreReports.length = 0;
    expect((await restore(backup, { truncate_directory: true })).status).toBe(202);
    expect(await panel.waitForRestoreReport(backup)).toEqual({ successful: true });
    expect((await readdir(root())).sort()).toEqual(atBackup);
    expect(atBackup).not.toContain('new-since.txt');
    expect(await readdir(onDisk('world/data'))).toEqual([]);
    expect(await readFile(onDisk('server.properties'), 'utf8')).toBe('motd=original\n');
  });

  it('refuses an unknown local backup with 404 and a bad body with 422', async () => {
    expect(await restore(randomUUID(), {})).toMatchObject({
      status: 404,
      body: { error: NOT_FOUND_MESSAGE },
    });
    expect(await restore(randomUUID(), { adapter: 's3', download_url: 'file:///etc/passwd' })).toMatchObject({
      status: 422,
      body: { error: BACKUP_BODY_MESSAGES.downloadUrl },
    });
  });

  it('refuses power actions and new backups while restoring, and reports a refused download as failed', async () => {
    // A store that holds its answer until the test lets it go.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const store: Server = createServer(async (_request, response) => {
      await held;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>not a backup</html>');
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    const address = store.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/backup`;
    await writeFile(onDisk('untouched.txt'), 'still here');
    const socket = await connect(['websocket.connect', 'control.start']);
    const backup = randomUUID();
    try {
      expect(
        (await restore(backup, { adapter: 's3', download_url: url, truncate_directory: true })).status,
      ).toBe(202);
      const power = await daemon.request('POST', `/api/servers/${UUID}/power`, { body: { action: 'start' } });
      expect(power).toMatchObject({ status: 409, body: { error: RESTORING_MESSAGE } });
      expect(RESTORING_MESSAGE).toBe(
        'This server is currently restoring from a backup, please try again later.',
      );
      expect(await startBackup({ uuid: randomUUID() })).toMatchObject({
        status: 409,
        body: { error: RESTORING_MESSAGE },
      });
      expect((await restore(backup, { adapter: 's3', download_url: url })).status).toBe(409);
      // The console's own start is refused too, with the same text.
      const error = socket.next('daemon error', (args) => args[0]?.includes(RESTORING_MESSAGE) ?? false);
      socket.send('set state', ['start']);
      await error;

      const completed = socket.next('backup restore completed', () => true, 20_000);
      release();
      expect(await panel.waitForRestoreReport(backup)).toEqual({ successful: false });
      await completed;
      // Refused before truncation: nothing was removed, and the server can be started again.
      expect(await readFile(onDisk('untouched.txt'), 'utf8')).toBe('still here');
      expect(daemon.manager.get(UUID)?.isRestoring).toBe(false);
      expect((await readdir(path.join(dataDirectory, 'backups'))).filter((n) => n.endsWith('.part'))).toEqual(
        [],
      );
    } finally {
      release();
      store.closeAllConnections();
      await new Promise((resolve) => store.close(resolve));
    }
  }, 30_000);
});

describe('restoring a hostile archive', () => {
  const plant = async (entries: Parameters<typeof buildTarGz>[0]) => {
    const backup = randomUUID();
    await mkdir(path.join(dataDirectory, 'backups'), { recursive: true });
    await writeFile(archiveOf(backup), await buildTarGz(entries));
    return backup;
  };
  const attempt = async (backup: string, uuid = UUID) => {
    expect((await restore(backup, {}, uuid)).status).toBe(202);
    return panel.waitForRestoreReport(backup);
  };

  it.each([
    ['a name climbing out with ..', [{ name: '../../escaped.txt', data: 'x' }]],
    ['an absolute name', [{ name: path.join('/tmp', `aerie-abs-${process.pid}.txt`), data: 'x' }]],
    [
      'a link out of the root, then a file through it',
      [
        { name: 'escape', type: 'symlink' as const, linkname: '../../../../../../tmp' },
        { name: `escape/aerie-through-${process.pid}.txt`, data: 'x' },
      ],
    ],
    ['a hard link to a host file', [{ name: 'passwd', type: 'link' as const, linkname: '/etc/passwd' }]],
  ])('refuses %s: the restore fails and nothing is written anywhere', async (_name, entries) => {
    const before = (await readdir(root())).sort();
    const backup = await plant([{ name: 'harmless.txt', data: 'first entry' }, ...entries]);
    expect(await attempt(backup)).toEqual({ successful: false });
    expect((await readdir(root())).sort()).toEqual(before);
    await expect(stat(path.join(dataDirectory, 'escaped.txt'))).rejects.toThrow();
    await expect(stat(path.join(dataDirectory, 'volumes', 'escaped.txt'))).rejects.toThrow();
    await expect(stat(path.join('/tmp', `aerie-abs-${process.pid}.txt`))).rejects.toThrow();
    await expect(stat(path.join('/tmp', `aerie-through-${process.pid}.txt`))).rejects.toThrow();
    expect(daemon.manager.get(UUID)?.isRestoring).toBe(false);
  });

  it('refuses an archive bigger than the server disk limit', async () => {
    const backup = await plant([{ name: 'huge.bin', data: Buffer.alloc(3 * 1024 * 1024) }]);
    expect(await attempt(backup, SMALL)).toEqual({ successful: false });
    await expect(stat(onDisk('huge.bin', SMALL))).rejects.toThrow();
  });
});

describe('DELETE /api/servers/{uuid}/backup/{backup}', () => {
  it('removes the local file: 204, then 404', async () => {
    const { backup } = await backupNow();
    const route = `/api/servers/${UUID}/backup/${backup}`;
    expect((await daemon.request('DELETE', route)).status).toBe(204);
    await expect(stat(archiveOf(backup))).rejects.toThrow();
    expect(await daemon.request('DELETE', route)).toMatchObject({
      status: 404,
      body: { error: NOT_FOUND_MESSAGE },
    });
    expect((await daemon.request('DELETE', `/api/servers/${UUID}/backup/..%2F..%2Fstates.json`)).status).toBe(
      404,
    );
    await stat(path.join(dataDirectory, 'states.json'));
  });
});

describe('GET /download/backup', () => {
  it('still serves the local backups of a server that moved to another node', async () => {
    const { backup } = await backupNow();
    // The server is no longer here (OTHER_NODE_SERVER stands for it): its backup stays, and downloads.
    const moved = await download(await token({ backup_uuid: backup, server_uuid: OTHER_NODE_SERVER }));
    expect(moved.status).toBe(200);
    expect(moved.bytes.equals(await readFile(archiveOf(backup)))).toBe(true);
  });

  const token = (claims: Record<string, unknown>) =>
    signTestToken(
      { server_uuid: UUID, unique_id: randomUUID().replace(/-/g, ''), purpose: 'backup_download', ...claims },
      { key: NODE_TOKEN },
    );
  const download = async (jwt: string, route = '/download/backup') =>
    rawRequest(daemon, 'GET', `${route}?token=${encodeURIComponent(jwt)}`, { token: null });

  it('streams the archive once as an attachment; the second use is refused', async () => {
    const { backup } = await backupNow();
    const jwt = await token({ backup_uuid: backup });
    const first = await download(jwt);
    expect(first.status).toBe(200);
    expect(first.bytes.equals(await readFile(archiveOf(backup)))).toBe(true);
    expect(first.headers.get('content-type')).toBe('application/octet-stream');
    expect(first.headers.get('content-disposition')).toBe(
      `attachment; filename="${backup}.tar.gz"; filename*=UTF-8''${backup}.tar.gz`,
    );
    expect(await download(jwt)).toMatchObject({ status: 403, json: { error: TOKEN_USED_MESSAGE } });
  });

  it('opens only with a backup_download token, and such a token opens no file download', async () => {
    const { backup } = await backupNow();
    const fileToken = await token({
      purpose: 'file_download',
      file_path: '/server.properties',
      backup_uuid: backup,
    });
    expect(await download(fileToken)).toMatchObject({
      status: 403,
      json: { error: JWT_ERROR_MESSAGES.purpose },
    });
    const socketToken = await token({ purpose: 'websocket', backup_uuid: backup });
    expect((await download(socketToken)).status).toBe(403);
    const backupToken = await token({ backup_uuid: backup, file_path: '/server.properties' });
    expect(await download(backupToken, '/download/file')).toMatchObject({
      status: 403,
      json: { error: JWT_ERROR_MESSAGES.purpose },
    });
    // A backup token refused elsewhere was not spent: it still downloads here.
    expect((await download(backupToken)).status).toBe(200);
  });

  it('is 404 for a missing backup, 403 for a name that is no uuid', async () => {
    expect(await download(await token({ backup_uuid: randomUUID() }))).toMatchObject({
      status: 404,
      json: { error: NOT_FOUND_MESSAGE },
    });
    expect(await download(await token({ backup_uuid: '../states' }))).toMatchObject({
      status: 403,
      json: { error: JWT_ERROR_MESSAGES.claims },
    });
  });
});
