import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  openSftp,
  type SftpClient,
  type SftpStand,
  startSftpStand,
  statusOf,
} from './testing/sftp-stand';

/**
 * The SFTP operations through ssh2's own client against a real daemon: each goes through the server's jailed
 * filesystem with the permission of wings.md §8, and nothing outside the root is ever reached.
 */
const { STATUS_CODE } = ssh2.utils.sftp;
let stand: SftpStand;
let owner: SftpClient;
let local: string;
const username = () => `owner.${stand.server.id}`;
const onDisk = (relative: string) => path.join(stand.server.root, relative);

beforeAll(async () => {
  stand = await startSftpStand({ denylist: ['*.jar'] });
  stand.accounts.set('owner', {
    uuid: randomUUID(),
    password: 'owner-password',
    keys: [],
    permissions: ['*'],
  });
  owner = await openSftp(stand.port, { username: username(), password: 'owner-password' });
  local = await fs.mkdtemp(path.join(os.tmpdir(), 'aerie-sftp-local-'));
});
afterAll(async () => {
  owner?.end();
  await stand?.close();
  await fs.rm(local, { recursive: true, force: true });
});

describe('file operations of the owner', () => {
  it('uploads and downloads a large file as a stream, byte for byte', async () => {
    const source = path.join(local, 'upload.bin');
    const bytes = randomBytes(5 * 1024 * 1024 + 123);
    await fs.writeFile(source, bytes);
    await call(owner.sftp, 'fastPut', source, '/world/region.bin');
    expect((await fs.readFile(onDisk('world/region.bin'))).equals(bytes)).toBe(true);
    expect((await fs.stat(onDisk('world/region.bin'))).mode & 0o777).toBe(0o644);

    const target = path.join(local, 'download.bin');
    await call(owner.sftp, 'fastGet', '/world/region.bin', target);
    expect((await fs.readFile(target)).equals(bytes)).toBe(true);

    // The stream interface (one request after another) lands the same bytes.
    await pipeline(createReadStream(source), owner.sftp.createWriteStream('/streamed.bin'));
    await pipeline(
      owner.sftp.createReadStream('/streamed.bin'),
      createWriteStream(path.join(local, 's.bin')),
    );
    expect((await fs.readFile(path.join(local, 's.bin'))).equals(bytes)).toBe(true);
  });

  it('lists folders with attributes and ls-style lines, and describes links as links', async () => {
    await fs.mkdir(onDisk('plugins'), { recursive: true });
    await fs.writeFile(onDisk('plugins/a.yml'), 'a: 1\n');
    await fs.symlink('/etc', onDisk('plugins/host-etc'));
    const list = await call<{ filename: string; longname: string; attrs: { size: number } }[]>(
      owner.sftp,
      'readdir',
      '/plugins',
    );
    const byName = new Map(list.map((entry) => [entry.filename, entry]));
    expect([...byName.keys()].sort()).toEqual(['a.yml', 'host-etc']);
    expect(byName.get('a.yml')?.attrs.size).toBe(5);
    expect(byName.get('a.yml')?.longname).toMatch(
      /^-rw-r--r-- +1 container container +5 \w{3} [ \d]\d .* a\.yml$/,
    );
    expect(byName.get('host-etc')?.longname.startsWith('l')).toBe(true);
    const stats = await call<ssh2.Stats>(owner.sftp, 'stat', '/plugins/host-etc');
    // A link leading outside is described as the link, never as the host's /etc.
    expect(stats.isSymbolicLink()).toBe(true);
    expect(await call(owner.sftp, 'realpath', '.')).toBe('/');
    expect(await call(owner.sftp, 'realpath', 'plugins/../plugins/./a.yml')).toBe('/plugins/a.yml');
  });

  it('renames, makes folders, deletes, and changes modes and times', async () => {
    await fs.writeFile(onDisk('old.txt'), 'text');
    await call(owner.sftp, 'rename', '/old.txt', '/new.txt');
    expect(await fs.readFile(onDisk('new.txt'), 'utf8')).toBe('text');
    await fs.writeFile(onDisk('taken.txt'), 'keep');
    expect(await statusOf(call(owner.sftp, 'rename', '/new.txt', '/taken.txt'))).toBe(STATUS_CODE.FAILURE);
    expect(await fs.readFile(onDisk('taken.txt'), 'utf8')).toBe('keep');

    await call(owner.sftp, 'mkdir', '/configs');
    expect((await fs.stat(onDisk('configs'))).isDirectory()).toBe(true);
    await call(owner.sftp, 'chmod', '/new.txt', 0o600);
    expect((await fs.stat(onDisk('new.txt'))).mode & 0o777).toBe(0o600);
    await call(owner.sftp, 'utimes', '/new.txt', 1_700_000_000, 1_700_000_000);
    expect((await fs.stat(onDisk('new.txt'))).mtimeMs).toBe(1_700_000_000_000);

    await call(owner.sftp, 'unlink', '/new.txt');
    await expect(fs.stat(onDisk('new.txt'))).rejects.toThrow();
    await fs.writeFile(onDisk('configs/inside'), 'x');
    expect(await statusOf(call(owner.sftp, 'rmdir', '/configs'))).toBe(STATUS_CODE.FAILURE);
    await call(owner.sftp, 'unlink', '/configs/inside');
    await call(owner.sftp, 'rmdir', '/configs');
    await expect(fs.stat(onDisk('configs'))).rejects.toThrow();
  });

  it('never reaches outside the root: .. paths, links out, symlinks pointing out, chmod through a link', async () => {
    const outside = path.dirname(path.dirname(stand.server.root));
    const canary = path.join(outside, 'canary.txt');
    await fs.writeFile(canary, 'host file', { mode: 0o600 });
    await fs.symlink(canary, onDisk('link-out'));
    const noSuchFile = STATUS_CODE.NO_SUCH_FILE;

    expect(await statusOf(call(owner.sftp, 'readdir', '/..'))).toBe(noSuchFile);
    expect(await statusOf(call(owner.sftp, 'stat', '../../canary.txt'))).toBe(noSuchFile);
    expect(await statusOf(call(owner.sftp, 'open', '/../../canary.txt', 'r'))).toBe(noSuchFile);
    expect(await statusOf(call(owner.sftp, 'open', '/a/../../../canary.txt', 'w'))).toBe(noSuchFile);
    expect(await statusOf(call(owner.sftp, 'open', '/link-out', 'r'))).toBe(STATUS_CODE.FAILURE);
    expect(await statusOf(call(owner.sftp, 'open', '/link-out', 'w'))).toBe(STATUS_CODE.FAILURE);
    expect(await statusOf(call(owner.sftp, 'chmod', '/link-out', 0o777))).toBe(STATUS_CODE.FAILURE);
    expect(await statusOf(call(owner.sftp, 'rename', '/link-out', '/../moved'))).toBe(noSuchFile);
    // Symlinks may only point inside, by a relative path.
    for (const target of [canary, '/etc/passwd', '../../canary.txt', '../../../']) {
      expect(await statusOf(call(owner.sftp, 'symlink', target, '/made-link'))).toBe(STATUS_CODE.FAILURE);
    }
    await fs.writeFile(onDisk('server.properties'), 'motd=hi\n');
    await call(owner.sftp, 'symlink', 'server.properties', '/props-link');
    expect(await fs.readlink(onDisk('props-link'))).toBe('server.properties');
    expect(await call(owner.sftp, 'readlink', '/props-link')).toBe('server.properties');

    await call(owner.sftp, 'unlink', '/link-out');
    expect(await fs.readFile(canary, 'utf8')).toBe('host file');
    expect((await fs.stat(canary)).mode & 0o777).toBe(0o600);
  });

  it("applies the egg's denylist to writes and renames, not to reads", async () => {
    await fs.writeFile(onDisk('server.jar'), 'jar');
    const permissionDenied = STATUS_CODE.PERMISSION_DENIED;
    expect(await statusOf(call(owner.sftp, 'open', '/server.jar', 'w'))).toBe(permissionDenied);
    expect(await statusOf(call(owner.sftp, 'open', '/other.jar', 'w'))).toBe(permissionDenied);
    expect(await statusOf(call(owner.sftp, 'rename', '/server.properties', '/x.jar'))).toBe(permissionDenied);
    expect(await statusOf(call(owner.sftp, 'unlink', '/server.jar'))).toBe(permissionDenied);
    const handle = await call<Buffer>(owner.sftp, 'open', '/server.jar', 'r');
    await call(owner.sftp, 'close', handle);
  });

  it('bounds the handles one connection holds, and frees them on close', async () => {
    await fs.writeFile(onDisk('many.txt'), 'm');
    const handles: Buffer[] = [];
    let refused = 0;
    for (let i = 0; i < 70; i++) {
      const outcome = await call<Buffer>(owner.sftp, 'open', '/many.txt', 'r').catch(() => undefined);
      if (outcome) handles.push(outcome);
      else refused++;
    }
    expect(handles.length).toBe(64);
    expect(refused).toBe(6);
    for (const handle of handles) await call(owner.sftp, 'close', handle);
    const again = await call<Buffer>(owner.sftp, 'open', '/many.txt', 'r');
    await call(owner.sftp, 'close', again);
  });
});
