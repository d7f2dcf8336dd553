import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { BackupService } from '@aerie/daemon/backups/backup-service';
import { buildTarGz } from '@aerie/daemon/backups/testing-archive';
import { signedFileRoutes } from '@aerie/daemon/http/signed-file-routes';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import { TRANSFERRING_MESSAGE } from '@aerie/daemon/server/managed-server';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import {
  demoConfiguration,
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { TRANSFER_TOKEN_SECONDS } from '@aerie/shared/transfers/transfers-daemon-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const panelClient = () =>
  new PanelClient({
    url: panel.url,
    tokenId: PANEL_TOKEN_ID,
    token: PANEL_TOKEN,
    retryForMs: 2000,
    firstRetryDelayMs: 50,
  });

let panel: PanelStandIn;
let source: TestDaemon;
let target: TestDaemon;

const transferToken = async (uuid: string, claims: Record<string, unknown> = {}, key = NODE_TOKEN) => {
  const now = Math.floor(Date.now() / 1000);
  return `Bearer ${await signTestToken(
    {
      sub: uuid,
      server_uuid: uuid,
      purpose: 'transfer',
      iat: now,
      nbf: now,
      exp: now + TRANSFER_TOKEN_SECONDS,
      ...claims,
    },
    { key },
  )}`;
};

const startTransfer = async (uuid: string, token?: string) =>
  source.request('POST', `/api/servers/${uuid}/transfer`, {
    body: {
      url: `${target.url}/api/transfers`,
      token: token ?? (await transferToken(uuid)),
      server: { uuid, start_on_completion: false },
    },
  });

const volume = (daemon: TestDaemon, uuid: string) => path.join(daemon.dataDirectory, 'volumes', uuid);

async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A server known to the panel stand-in before the source boots (so the source has it), files written into it. */
async function serverOnSource(uuid: string, configuration = fileServerConfiguration(uuid)) {
  panel.servers.set(uuid, configuration);
  await source.manager.create(uuid, false);
  await waitFor(() => source.manager.get(uuid)?.isInstalling === false, 'the install to end');
  return source.manager.get(uuid) as NonNullable<ReturnType<TestDaemon['manager']['get']>>;
}

beforeAll(async () => {
  panel = await startPanelStandIn();
  source = await startTestDaemon({ panel, transferOptions: { progressIntervalMs: 100 } });
  target = await startTestDaemon({ panel });
});

afterAll(async () => {
  await source?.close();
  await target?.close();
  await panel?.close();
});

describe('a server moving between two daemons', () => {
  it('arrives whole on the target: files, folders, links inside, modes; the panel hears success once', async () => {
    const uuid = '11111111-2222-4333-8444-555555555555';
    const server = await serverOnSource(uuid);
    const root = volume(source, uuid);
    const big = randomBytes(3 * 1024 * 1024);
    await mkdir(path.join(root, 'world/region'), { recursive: true });
    await mkdir(path.join(root, 'empty'));
    await writeFile(path.join(root, 'world/region/r.0.0.mca'), big);
    await writeFile(path.join(root, 'start.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    await symlink('world/region/r.0.0.mca', path.join(root, 'latest'));
    const logs: string[] = [];
    const statuses: string[] = [];
    server.on('transfer logs', (line) => logs.push(line));
    server.on('transfer status', (status) => statuses.push(status));

    expect((await startTransfer(uuid)).status).toBe(202);
    expect(await panel.waitForTransferReport(uuid)).toEqual({ outcome: 'success', reason: undefined });
    await waitFor(() => statuses.includes('success'), 'the source to say success');

    const moved = volume(target, uuid);
    expect(
      createHash('sha256')
        .update(await readFile(path.join(moved, 'world/region/r.0.0.mca')))
        .digest('hex'),
    ).toBe(createHash('sha256').update(big).digest('hex'));
    expect((await stat(path.join(moved, 'start.sh'))).mode & 0o777).toBe(0o755);
    expect(await readlink(path.join(moved, 'latest'))).toBe('world/region/r.0.0.mca');
    expect((await stat(path.join(moved, 'empty'))).isDirectory()).toBe(true);
    expect(target.manager.get(uuid)?.state).toBe('offline');
    expect(await readdir(path.join(target.dataDirectory, 'transfers'))).toEqual([]);
    expect(statuses).toEqual(['starting', 'processing', 'success']);
    expect(logs.some((line) => line.includes('Sent 3.'))).toBe(true);
    expect(panel.transferReports.filter((report) => report.uuid === uuid)).toHaveLength(1);

    // Moved: nothing runs on the source any more until the panel deletes it there.
    expect(server.isTransferring).toBe(true);
    const power = await source.request('POST', `/api/servers/${uuid}/power`, { body: { action: 'start' } });
    expect(power.status).toBe(409);
    const deleted: string[] = [];
    server.on('transfer status', (status) => deleted.push(status));
    server.on('deleted', () => deleted.push('deleted'));
    expect((await source.request('DELETE', `/api/servers/${uuid}`)).status).toBe(204);
    expect(deleted).toEqual(['completed', 'deleted']);
  });

  it('stops a running server first, and starts it again when the target refuses', async () => {
    const uuid = '22222222-2222-4333-8444-555555555555';
    const server = await serverOnSource(uuid, demoConfiguration(uuid, { skipScripts: true }));
    await source.request('POST', `/api/servers/${uuid}/power`, { body: { action: 'start' } });
    await waitFor(() => server.state === 'running', 'the demo server to run');

    const wrongKey = await transferToken(uuid, {}, 'not-the-target-node-token-0123456789');
    expect((await startTransfer(uuid, wrongKey)).status).toBe(202);
    const report = await panel.waitForTransferReport(uuid);
    expect(report.outcome).toBe('failure');
    expect(report.reason).toMatch(/the target node answered 401/);
    await waitFor(() => server.state === 'running', 'the server to run again');
    expect(server.isTransferring).toBe(false);
    expect(target.manager.get(uuid)).toBeUndefined();
    await server.power('kill');
  });

  it('refuses a second transfer and power actions while one runs, and a cancel puts everything back', {
    timeout: 30_000,
  }, async () => {
    const uuid = '33333333-2222-4333-8444-555555555555';
    const slowSource = await startTestDaemon({ panel, transferOptions: { limitMibPerSecond: 1 } });
    try {
      panel.servers.set(uuid, fileServerConfiguration(uuid));
      await slowSource.manager.create(uuid, false);
      await waitFor(() => slowSource.manager.get(uuid)?.isInstalling === false, 'the install');
      await writeFile(path.join(volume(slowSource, uuid), 'noise.bin'), randomBytes(6 * 1024 * 1024));
      const body = {
        url: `${target.url}/api/transfers`,
        token: await transferToken(uuid),
        server: { uuid, start_on_completion: false },
      };
      expect((await slowSource.request('POST', `/api/servers/${uuid}/transfer`, { body })).status).toBe(202);
      const again = await slowSource.request('POST', `/api/servers/${uuid}/transfer`, { body });
      expect(again).toMatchObject({ status: 409, body: { error: TRANSFERRING_MESSAGE } });
      const power = await slowSource.request('POST', `/api/servers/${uuid}/power`, {
        body: { action: 'start' },
      });
      expect(power.status).toBe(409);
      await waitFor(() => target.transfers.incoming.has(uuid), 'the target to be receiving');

      expect((await slowSource.request('DELETE', `/api/servers/${uuid}/transfer`)).status).toBe(202);
      const report = await panel.waitForTransferReport(uuid);
      expect(report.outcome).toBe('failure');
      await waitFor(() => !target.transfers.incoming.has(uuid), 'the target to give up');
      expect(slowSource.manager.get(uuid)?.isTransferring).toBe(false);
      expect(target.manager.get(uuid)).toBeUndefined();
      expect(await readdir(path.join(target.dataDirectory, 'transfers'))).toEqual([]);
      await expect(stat(volume(target, uuid))).rejects.toThrow();
      expect((await slowSource.request('DELETE', `/api/servers/${uuid}/transfer`)).status).toBe(409);
    } finally {
      await slowSource.close();
    }
  });
});

describe('the target refuses what it must not take', () => {
  const post = async (uuid: string, parts: { archive?: Buffer; checksum?: string }, token?: string) => {
    const form = new FormData();
    if (parts.archive) form.append('archive', new Blob([parts.archive]), 'archive.tar.gz');
    if (parts.checksum !== undefined) form.append('checksum', parts.checksum);
    const response = await fetch(`${target.url}/api/transfers`, {
      method: 'POST',
      headers: { authorization: token ?? (await transferToken(uuid)) },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as { error?: string } };
  };
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it('a damaged stream (checksum mismatch): nothing is kept, the panel is told why', async () => {
    const uuid = '44444444-2222-4333-8444-555555555555';
    panel.servers.set(uuid, fileServerConfiguration(uuid));
    const archive = await buildTarGz([{ name: 'a.txt', data: 'hello' }]);
    const answer = await post(uuid, { archive, checksum: sha256(Buffer.from('something else')) });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatch(/does not match its checksum/);
    expect((await panel.waitForTransferReport(uuid)).reason).toMatch(/does not match its checksum/);
    expect(target.manager.get(uuid)).toBeUndefined();
    await expect(stat(volume(target, uuid))).rejects.toThrow();
  });

  it('an archive whose entries leave the server, or link out of it', async () => {
    for (const [uuid, entry] of [
      ['55555555-2222-4333-8444-555555555555', { name: '../../escaped.txt', data: 'out' }],
      [
        '66666666-2222-4333-8444-555555555555',
        { name: 'passwd', type: 'symlink' as const, linkname: '/etc/passwd' },
      ],
    ] as const) {
      panel.servers.set(uuid, fileServerConfiguration(uuid));
      const archive = await buildTarGz([entry]);
      const answer = await post(uuid, { archive, checksum: sha256(archive) });
      expect(answer.status).toBe(422);
      expect(target.manager.get(uuid)).toBeUndefined();
    }
    await expect(stat(path.join(target.dataDirectory, 'escaped.txt'))).rejects.toThrow();
    await expect(stat(path.join(target.dataDirectory, 'transfers/escaped.txt'))).rejects.toThrow();
  });

  it('tokens that are not this node’s transfer token for this server', async () => {
    const uuid = '77777777-2222-4333-8444-555555555555';
    panel.servers.set(uuid, fileServerConfiguration(uuid));
    const archive = await buildTarGz([{ name: 'a.txt', data: 'x' }]);
    const bad = [
      await transferToken(uuid, { purpose: 'websocket' }),
      await transferToken(uuid, { sub: '88888888-2222-4333-8444-555555555555' }),
      await transferToken(uuid, {}, 'another-node-token-0123456789abcdef'),
      await transferToken(uuid, { exp: Math.floor(Date.now() / 1000) - 5 }),
      'Bearer ',
    ];
    for (const token of bad)
      expect((await post(uuid, { archive, checksum: sha256(archive) }, token)).status).toBe(401);
    expect(target.manager.get(uuid)).toBeUndefined();
  });

  it('a server the panel does not send here, or one already here', async () => {
    const unknown = '99999999-2222-4333-8444-555555555555';
    const archive = await buildTarGz([{ name: 'a.txt', data: 'x' }]);
    expect((await post(unknown, { archive, checksum: sha256(archive) })).status).toBe(403);

    const here = 'aaaaaaaa-2222-4333-8444-555555555555';
    panel.servers.set(here, fileServerConfiguration(here));
    await target.manager.create(here, false);
    expect((await post(here, { archive, checksum: sha256(archive) })).status).toBe(409);
  });

  it('a checksum before the archive, or none at all', async () => {
    const uuid = 'bbbbbbbb-2222-4333-8444-555555555555';
    panel.servers.set(uuid, fileServerConfiguration(uuid));
    const archive = await buildTarGz([{ name: 'a.txt', data: 'x' }]);
    expect((await post(uuid, { archive })).body.error).toMatch(/no checksum/);
    expect(target.manager.get(uuid)).toBeUndefined();
  });
});

describe('local backups of a server that moved', () => {
  it('stay on the old node, download from there, restore on the new node from there, and are removed there', {
    timeout: 30_000,
  }, async () => {
    const uuid = 'ffffffff-2222-4333-8444-555555555555';
    const oldData = await mkdtemp(path.join(tmpdir(), 'aerie-transfer-old-'));
    const backups = new BackupService({
      directory: path.join(oldData, 'backups'),
      panel: panelClient(),
      log: () => {},
    });
    const denylist = new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) });
    const old = await startTestDaemon({
      panel,
      dataDirectory: oldData,
      backups,
      plugins: signedFileRoutes({ dataDirectory: oldData, uploadLimitMb: 1, denylist, backups }),
    });
    try {
      panel.servers.set(uuid, fileServerConfiguration(uuid));
      await old.manager.create(uuid, false);
      await waitFor(() => old.manager.get(uuid)?.isInstalling === false, 'the install');
      await writeFile(path.join(volume(old, uuid), 'level.dat'), 'before the move');
      const backup = randomUUID();
      await old.request('POST', `/api/servers/${uuid}/backup`, {
        body: { adapter: 'wings', uuid: backup, ignore: '' },
      });
      expect((await panel.waitForBackupReport(backup)).successful).toBe(true);
      const moved = await old.request('POST', `/api/servers/${uuid}/transfer`, {
        body: { url: `${target.url}/api/transfers`, token: await transferToken(uuid), server: { uuid } },
      });
      expect(moved.status).toBe(202);
      expect((await panel.waitForTransferReport(uuid)).outcome).toBe('success');
      expect((await old.request('DELETE', `/api/servers/${uuid}`)).status).toBe(204);
      await writeFile(path.join(volume(target, uuid), 'level.dat'), 'after the move');

      const signed = async () =>
        `${old.url}/download/backup?token=${await signTestToken(
          { server_uuid: uuid, backup_uuid: backup, unique_id: randomUUID(), purpose: 'backup_download' },
          { key: NODE_TOKEN },
        )}`;
      expect((await fetch(await signed())).status).toBe(200);
      const restored = await target.request('POST', `/api/servers/${uuid}/backup/${backup}/restore`, {
        body: { adapter: 'wings', truncate_directory: true, download_url: await signed() },
      });
      expect(restored.status).toBe(202);
      expect(await panel.waitForRestoreReport(backup)).toEqual({ successful: true });
      expect(await readFile(path.join(volume(target, uuid), 'level.dat'), 'utf8')).toBe('before the move');
      const local = await target.request('POST', `/api/servers/${uuid}/backup/${backup}/restore`, {
        body: { adapter: 'wings', truncate_directory: false, download_url: 'file:///etc/passwd' },
      });
      expect(local.status).toBe(422);

      // And the old node still removes it, though the server is no longer there.
      expect((await old.request('DELETE', `/api/servers/${uuid}/backup/${backup}`)).status).toBe(204);
      await expect(stat(path.join(oldData, 'backups', `${backup}.tar.gz`))).rejects.toThrow();
      expect((await old.request('DELETE', `/api/servers/${uuid}/backup/${backup}`)).status).toBe(404);
    } finally {
      await old.close();
    }
  });
});

describe('a daemon that stopped part-way', () => {
  it('removes half-received files at boot, and a received server the panel never took', async () => {
    const panelOfItsOwn = await startPanelStandIn();
    const daemon = await startTestDaemon({ panel: panelOfItsOwn });
    await daemon.stop();
    const half = 'cccccccc-2222-4333-8444-555555555555';
    const unacknowledged = 'dddddddd-2222-4333-8444-555555555555';
    const acknowledged = 'eeeeeeee-2222-4333-8444-555555555555';
    const transfers = path.join(daemon.dataDirectory, 'transfers');
    await mkdir(path.join(transfers, half, 'world'), { recursive: true });
    for (const uuid of [unacknowledged, acknowledged]) {
      await mkdir(path.join(daemon.dataDirectory, 'volumes', uuid), { recursive: true });
      await writeFile(path.join(daemon.dataDirectory, 'volumes', uuid, 'kept.txt'), uuid);
      await writeFile(path.join(transfers, `${uuid}.received`), '');
    }
    panelOfItsOwn.servers.set(acknowledged, fileServerConfiguration(acknowledged));
    const again = await startTestDaemon({ panel: panelOfItsOwn, dataDirectory: daemon.dataDirectory });
    try {
      expect(await readdir(transfers)).toEqual([]);
      await expect(stat(volume(again, unacknowledged))).rejects.toThrow();
      expect(await readFile(path.join(volume(again, acknowledged), 'kept.txt'), 'utf8')).toBe(acknowledged);
      expect(again.manager.get(acknowledged)).toBeDefined();
    } finally {
      await again.close();
      await panelOfItsOwn.close();
    }
  });
});
