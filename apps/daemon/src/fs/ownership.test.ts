import { lstat, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTar } from './fs-test-support';
import { chownTreeNoFollow } from './ownership';
import { ServerFilesystem } from './server-filesystem';

const root = process.getuid?.() === 0;
let base: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'aerie-ownership-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.runIf(root)('chownTreeNoFollow', () => {
  it('gives the whole tree to the uid and never follows a link out of it', async () => {
    const volume = path.join(base, 'volume');
    const host = path.join(base, 'host');
    await mkdir(path.join(volume, 'plugins', 'deep'), { recursive: true });
    await mkdir(host);
    await writeFile(path.join(volume, 'plugins', 'deep', 'a.jar'), 'a');
    await writeFile(path.join(host, 'shadow'), 'host secret');
    // What a game plants: links to a host file and to a host directory.
    await symlink(path.join(host, 'shadow'), path.join(volume, 'file-link'));
    await symlink(host, path.join(volume, 'plugins', 'dir-link'));

    await chownTreeNoFollow(volume, 2_000_123, 2_000_123);

    for (const inside of ['', 'plugins', 'plugins/deep', 'plugins/deep/a.jar']) {
      expect((await stat(path.join(volume, inside))).uid).toBe(2_000_123);
    }
    expect((await lstat(path.join(volume, 'file-link'))).uid).toBe(2_000_123);
    expect((await stat(path.join(host, 'shadow'))).uid).toBe(0);
    expect((await stat(host)).uid).toBe(0);
  });

  it('refuses a root that is itself a link', async () => {
    await mkdir(path.join(base, 'real'));
    await symlink(path.join(base, 'real'), path.join(base, 'link'));
    await expect(chownTreeNoFollow(path.join(base, 'link'), 2_000_123, 2_000_123)).rejects.toThrow();
    expect((await stat(path.join(base, 'real'))).uid).toBe(0);
  });
});

describe.runIf(root)('files the daemon creates for a server whose game has its own uid', () => {
  it('belong to that uid: writes, new folders and their parents, copies, archives and extracted entries', async () => {
    const owner = { uid: 2_000_321, gid: 2_000_321 };
    const files = await ServerFilesystem.open({ root: base, owner });
    await files.writeFile('/config/server.properties', 'motd=hi');
    await files.createDirectory('plugins', '/');
    await files.copy('/config/server.properties');
    const archive = await files.archives.compress('/', ['config']);
    await files.writeFile('/pack.tar', await buildTar([{ name: 'maps/world.dat', content: 'w' }]));
    await files.archives.decompress('/', 'pack.tar');
    const owned = [
      'config',
      'config/server.properties',
      'config/server copy.properties',
      'plugins',
      archive.name,
      'maps',
      'maps/world.dat',
    ];
    for (const name of owned) expect((await lstat(path.join(base, name))).uid, name).toBe(owner.uid);
  });
});
