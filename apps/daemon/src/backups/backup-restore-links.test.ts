import { randomUUID } from 'node:crypto';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTarGz, listTarGz } from './testing-archive';

const UUID = '3a4b5c6d-7e8f-4091-a2b3-c4d5e6f70819';
let panel: PanelStandIn;
let daemon: TestDaemon;
let outside: string;
const root = () => path.join(daemon.dataDirectory, 'volumes', UUID);
const onDisk = (name: string) => path.join(root(), name);
const archiveOf = (backup: string) => path.join(daemon.dataDirectory, 'backups', `${backup}.tar.gz`);

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  outside = await mkdtemp(path.join(tmpdir(), 'aerie-restore-outside-'));
  daemon = await startTestDaemon({ panel, backupOptions: { log: () => {}, restoreStopTimeoutMs: 10_000 } });
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
  await rm(outside, { recursive: true, force: true });
});

async function backupNow(): Promise<string> {
  const backup = randomUUID();
  const started = await daemon.request('POST', `/api/servers/${UUID}/backup`, {
    body: { adapter: 'wings', uuid: backup, ignore: '' },
  });
  expect(started.status).toBe(202);
  expect((await panel.waitForBackupReport(backup)).successful).toBe(true);
  return backup;
}

async function restore(backup: string, truncate: boolean): Promise<{ successful: boolean }> {
  panel.restoreReports.length = 0;
  const started = await daemon.request('POST', `/api/servers/${UUID}/backup/${backup}/restore`, {
    body: { adapter: 'wings', truncate_directory: truncate, download_url: null },
  });
  expect(started.status).toBe(202);
  return panel.waitForRestoreReport(backup);
}

/** Every name under the server's folder with what it is: a file's bytes, a link's text, or a folder. */
async function snapshot(directory = root(), prefix = ''): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const name of (await readdir(directory)).sort()) {
    const full = path.join(directory, name);
    const stats = await lstat(full);
    const key = `${prefix}${name}`;
    if (stats.isSymbolicLink()) seen[key] = `link -> ${await readlink(full)}`;
    else if (stats.isDirectory()) {
      seen[key] = 'folder';
      Object.assign(seen, await snapshot(full, `${key}/`));
    } else seen[key] = `file ${await readFile(full, 'utf8')}`;
  }
  return seen;
}

describe('restoring a backup that holds links', () => {
  it('restores absolute /home/container and relative links as links, after a truncate, and the files with them', async () => {
    await mkdir(onDisk('.steam/steamcmd/linux64'), { recursive: true });
    await mkdir(onDisk('.steam/sdk64'), { recursive: true });
    await mkdir(onDisk('config'), { recursive: true });
    await writeFile(onDisk('.steam/steamcmd/linux64/steamclient.so'), 'steam client');
    await writeFile(onDisk('server.cfg'), 'hostname=kept');
    await writeFile(onDisk('config/game.ini'), '[game]');
    // What SteamCMD installs make: an absolute link through the container's mount of the volume.
    await symlink(
      '/home/container/.steam/steamcmd/linux64/steamclient.so',
      onDisk('.steam/sdk64/steamclient.so'),
    );
    await symlink('config/game.ini', onDisk('game.ini'));
    await symlink('/home/container', onDisk('home'));
    // A link to a host path leads outside the server's files: left out of the backup, so the backup restores.
    await writeFile(path.join(outside, 'secret'), 'host file');
    await symlink(path.join(outside, 'secret'), onDisk('host-link'));
    const backup = await backupNow();
    const stored = await listTarGz(archiveOf(backup));
    expect(stored.filter((entry) => entry.type === 'symlink').map((e) => [e.name, e.linkname])).toEqual([
      ['.steam/sdk64/steamclient.so', '/home/container/.steam/steamcmd/linux64/steamclient.so'],
      ['game.ini', 'config/game.ini'],
      ['home', '/home/container'],
    ]);
    await rm(onDisk('host-link'));
    const atBackup = await snapshot();

    await writeFile(onDisk('server.cfg'), 'hostname=changed');
    await writeFile(onDisk('made-later.txt'), 'gone after the truncate');
    await rm(onDisk('.steam'), { recursive: true });

    expect(await restore(backup, true)).toEqual({ successful: true });
    expect(await snapshot()).toEqual(atBackup);
    expect(atBackup['.steam/sdk64/steamclient.so']).toBe(
      'link -> /home/container/.steam/steamcmd/linux64/steamclient.so',
    );
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('host file');

    // Restored over the current files (no truncate), a link replaces what has its name.
    await rm(onDisk('game.ini'));
    await writeFile(onDisk('game.ini'), 'a file now');
    expect(await restore(backup, false)).toEqual({ successful: true });
    expect(await snapshot()).toEqual(atBackup);
  });
});

describe('restoring a hostile archive with truncate', () => {
  const plant = async (entries: Parameters<typeof buildTarGz>[0]) => {
    const backup = randomUUID();
    await mkdir(path.join(daemon.dataDirectory, 'backups'), { recursive: true });
    await writeFile(archiveOf(backup), await buildTarGz(entries));
    return backup;
  };

  it.each([
    ['a name climbing out with ..', [{ name: '../../escaped.txt', data: 'x' }]],
    ['an absolute name', [{ name: `/tmp/aerie-abs-${process.pid}.txt`, data: 'x' }]],
    ['a link to a host folder', [{ name: 'etc', type: 'symlink' as const, linkname: '/etc' }]],
    ['a relative link climbing out', [{ name: 'up', type: 'symlink' as const, linkname: '../../../..' }]],
    [
      'a link through /home/container climbing out',
      [{ name: 'c', type: 'symlink' as const, linkname: '/home/container/../..' }],
    ],
    [
      'a link inside, then a file through it',
      [
        { name: 'sub', type: 'directory' as const },
        { name: 'via', type: 'symlink' as const, linkname: 'sub' },
        { name: 'via/through.txt', data: 'x' },
      ],
    ],
    ['a hard link', [{ name: 'passwd', type: 'link' as const, linkname: 'server.cfg' }]],
  ])('refuses %s: nothing is removed, the panel hears it failed', async (_name, entries) => {
    await mkdir(onDisk('world'), { recursive: true });
    await writeFile(onDisk('world/level.dat'), 'the world');
    await writeFile(onDisk('server.cfg'), 'hostname=untouched');
    const before = await snapshot();
    // The hostile entry comes last: a restore that truncated or wrote before checking it all would show here.
    const backup = await plant([{ name: 'harmless.txt', data: 'first entry' }, ...entries]);
    expect(await restore(backup, true)).toEqual({ successful: false });
    expect(await snapshot()).toEqual(before);
    await expect(stat(path.join(daemon.dataDirectory, 'escaped.txt'))).rejects.toThrow();
    await expect(stat(`/tmp/aerie-abs-${process.pid}.txt`)).rejects.toThrow();
    expect(daemon.manager.get(UUID)?.isRestoring).toBe(false);
  });
});
