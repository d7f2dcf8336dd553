import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, memoryQuota, readAll, type Sandbox } from './fs-test-support';
import { ServerFilesystem } from './server-filesystem';

let sandbox: Sandbox;
let files: ServerFilesystem;
const fixedNow = new Date(2026, 10, 22, 3, 15, 2);

beforeEach(async () => {
  sandbox = await makeSandbox();
  files = await ServerFilesystem.open({ root: sandbox.root, now: () => fixedNow });
});
afterEach(() => sandbox.cleanup());

const onDisk = (relative: string) => path.join(sandbox.root, relative);

describe('list', () => {
  it('shows directories first, then files, each by name, with Wings fields', async () => {
    await fs.mkdir(onDisk('zeta'));
    await fs.mkdir(onDisk('Alpha'));
    await fs.writeFile(onDisk('b.txt'), 'bee');
    await fs.writeFile(onDisk('a.json'), '{}');
    await fs.writeFile(onDisk('server.properties'), 'motd=hi\n');
    await fs.writeFile(onDisk('blob'), Buffer.from([0, 1, 2, 3]));
    await fs.chmod(onDisk('b.txt'), 0o640);
    await fs.symlink('b.txt', onDisk('link'));

    const entries = await files.list('/');

    expect(entries.map((entry) => entry.name)).toEqual([
      'Alpha',
      'zeta',
      'a.json',
      'b.txt',
      'blob',
      'link',
      'server.properties',
    ]);
    const byName = Object.fromEntries(entries.map((entry) => [entry.name, entry]));
    expect(byName.zeta).toMatchObject({
      mode: 'drwxr-xr-x',
      mode_bits: '755',
      directory: true,
      file: false,
      symlink: false,
      mime: 'inode/directory',
    });
    expect(byName['b.txt']).toMatchObject({
      mode: '-rw-r-----',
      mode_bits: '640',
      size: 3,
      file: true,
      mime: 'text/plain',
    });
    expect(byName['a.json']?.mime).toBe('application/json');
    expect(byName['server.properties']?.mime).toBe('text/plain');
    expect(byName.blob?.mime).toBe('application/octet-stream');
    expect(byName.link).toMatchObject({
      symlink: true,
      file: false,
      mime: 'inode/symlink',
      mode: 'lrwxrwxrwx',
    });
    expect(Date.parse(byName['b.txt']?.modified ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(byName['b.txt']?.created ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('lists a subdirectory by a path with or without a leading slash', async () => {
    await fs.mkdir(onDisk('plugins/x'), { recursive: true });
    await fs.writeFile(onDisk('plugins/a.jar'), 'jar');
    expect((await files.list('/plugins')).map((entry) => entry.name)).toEqual(['x', 'a.jar']);
    expect((await files.list('plugins/')).map((entry) => entry.name)).toEqual(['x', 'a.jar']);
  });

  it('refuses a missing directory and a file as a directory', async () => {
    await fs.writeFile(onDisk('file.txt'), 'x');
    await expect(files.list('/nope')).rejects.toMatchObject({ code: 'ENOTFOUND', status: 404 });
    await expect(files.list('/file.txt')).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('read and write', () => {
  it('writes a file with missing parents (0755 folders, 0644 file) and reads it back', async () => {
    const entry = await files.writeFile('/config/game/settings.yml', 'difficulty: hard\n');
    expect(entry).toMatchObject({ name: 'settings.yml', size: 17, mode_bits: '644', mime: 'text/yaml' });
    expect((await fs.stat(onDisk('config/game'))).mode & 0o777).toBe(0o755);
    const contents = await files.readFile('config/game/settings.yml');
    expect(contents.size).toBe(17);
    expect(await readAll(contents.stream)).toBe('difficulty: hard\n');
  });

  it('writes from a stream, keeps the mode of an existing file, and allows an empty file', async () => {
    await fs.writeFile(onDisk('start.sh'), 'old');
    await fs.chmod(onDisk('start.sh'), 0o755);
    await files.writeFile('start.sh', Readable.from([Buffer.from('#!/bin/sh\n'), Buffer.from('echo hi\n')]));
    expect(await fs.readFile(onDisk('start.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect((await fs.stat(onDisk('start.sh'))).mode & 0o777).toBe(0o755);
    await files.writeFile('empty.txt', '');
    expect((await fs.stat(onDisk('empty.txt'))).size).toBe(0);
    expect((await fs.readdir(sandbox.root)).filter((name) => name.startsWith('.aerie'))).toEqual([]);
  });

  it('refuses to read a directory or a named pipe, and a missing file', async () => {
    await fs.mkdir(onDisk('dir'));
    await expect(files.readFile('dir')).rejects.toMatchObject({ code: 'EISDIR', status: 400 });
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [onDisk('pipe')]);
    await expect(files.readFile('pipe')).rejects.toMatchObject({ code: 'ENOTREGULAR' });
    await expect(files.readFile('missing.txt')).rejects.toMatchObject({
      code: 'ENOTFOUND',
      message: 'The requested resources was not found on the system.',
    });
  });

  it('refuses writing over a directory', async () => {
    await fs.mkdir(onDisk('world'));
    await expect(files.writeFile('world', 'x')).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('quota', () => {
  it('refuses a write that would pass the limit before writing anything, counting the replaced size', async () => {
    const quota = memoryQuota(100, 90);
    const limited = await ServerFilesystem.open({ root: sandbox.root, quota });
    await expect(limited.writeFile('big.bin', Buffer.alloc(11))).rejects.toMatchObject({
      code: 'EQUOTA',
      message: 'There is not enough disk space available to perform that action.',
    });
    await expect(fs.access(onDisk('big.bin'))).rejects.toThrow();
    await limited.writeFile('ok.bin', Buffer.alloc(10));
    expect(quota.used).toBe(100);
    // Replacing 10 bytes by 10 bytes changes nothing: current + (new − old) ≤ limit.
    await limited.writeFile('ok.bin', Buffer.alloc(10, 1));
    expect(quota.used).toBe(100);
  });

  it('cuts off a stream of unknown size at the limit and leaves no partial file', async () => {
    const quota = memoryQuota(1000);
    const limited = await ServerFilesystem.open({ root: sandbox.root, quota });
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(100));
    await expect(limited.writeFile('stream.bin', Readable.from(chunks))).rejects.toMatchObject({
      code: 'EQUOTA',
    });
    expect(await fs.readdir(sandbox.root)).toEqual([]);
    expect(quota.used).toBe(0);
  });

  it('refuses a copy that does not fit', async () => {
    await fs.writeFile(onDisk('world.dat'), Buffer.alloc(60));
    const limited = await ServerFilesystem.open({ root: sandbox.root, quota: memoryQuota(100, 60) });
    await expect(limited.copy('world.dat')).rejects.toMatchObject({ code: 'EQUOTA' });
    expect(await fs.readdir(sandbox.root)).toEqual(['world.dat']);
  });

  it('deletes an archive that would pass the limit', async () => {
    await fs.writeFile(onDisk('random.bin'), randomBytes(4000));
    const limited = await ServerFilesystem.open({ root: sandbox.root, quota: memoryQuota(5000, 4000) });
    await expect(limited.archives.compress('/', ['random.bin'])).rejects.toMatchObject({ code: 'EQUOTA' });
    expect(await fs.readdir(sandbox.root)).toEqual(['random.bin']);
  });

  it('measures disk usage from regular files only, hard links once', async () => {
    await fs.mkdir(onDisk('a/b'), { recursive: true });
    await fs.writeFile(onDisk('a/one'), Buffer.alloc(100));
    await fs.writeFile(onDisk('a/b/two'), Buffer.alloc(23));
    await fs.link(onDisk('a/one'), onDisk('a/b/one-again'));
    await fs.symlink(sandbox.outside, onDisk('out'));
    expect(await files.diskUsage()).toBe(123);
  });
});

describe('directories, rename, copy, delete, chmod', () => {
  it('creates a directory 0755 and refuses an empty name or one that exists', async () => {
    await files.createDirectory('maps', '/');
    await files.createDirectory('nether', '/maps');
    expect((await fs.stat(onDisk('maps/nether'))).mode & 0o777).toBe(0o755);
    await expect(files.createDirectory('', '/')).rejects.toMatchObject({
      code: 'EINVALID',
      message: 'A valid directory name must be provided.',
    });
    await expect(files.createDirectory('maps', '/')).rejects.toMatchObject({ code: 'EEXISTS' });
  });

  it('renames and moves, creating the destination folder, and never replaces an existing name', async () => {
    await fs.writeFile(onDisk('a.txt'), 'a');
    await fs.writeFile(onDisk('b.txt'), 'b');
    await files.rename('/', [{ from: 'a.txt', to: 'archive/old-a.txt' }]);
    expect(await fs.readFile(onDisk('archive/old-a.txt'), 'utf8')).toBe('a');
    await expect(files.rename('/', [{ from: 'b.txt', to: 'archive/old-a.txt' }])).rejects.toMatchObject({
      code: 'EEXISTS',
    });
    await files.rename('/archive', [{ from: 'old-a.txt', to: '../back.txt' }]);
    expect(await fs.readFile(onDisk('back.txt'), 'utf8')).toBe('a');
    await expect(files.rename('/', [{ from: 'nothing', to: 'x' }])).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('copies with Wings naming, keeping .tar with its compression suffix and the mode', async () => {
    await fs.writeFile(onDisk('notes.txt'), 'n');
    await fs.chmod(onDisk('notes.txt'), 0o600);
    await fs.writeFile(onDisk('backup.tar.gz'), 'gz');
    await fs.writeFile(onDisk('README'), 'r');
    expect((await files.copy('notes.txt')).name).toBe('notes copy.txt');
    expect((await files.copy('notes.txt')).name).toBe('notes copy 1.txt');
    expect((await files.copy('/notes.txt')).name).toBe('notes copy 2.txt');
    expect((await files.copy('backup.tar.gz')).name).toBe('backup copy.tar.gz');
    expect((await files.copy('README')).name).toBe('README copy');
    expect(await fs.readFile(onDisk('notes copy 1.txt'), 'utf8')).toBe('n');
    expect((await fs.stat(onDisk('notes copy.txt'))).mode & 0o777).toBe(0o600);
  });

  it('after 50 copies falls back to a timestamped name, and refuses copying a directory', async () => {
    await fs.writeFile(onDisk('a.txt'), 'a');
    await fs.writeFile(onDisk('a copy.txt'), 'x');
    for (let n = 1; n <= 50; n++) await fs.writeFile(onDisk(`a copy ${n}.txt`), 'x');
    const copy = await files.copy('a.txt');
    expect(copy.name).toMatch(/^acopy\.2026-11-22T03:15:02[+-]\d\d:\d\d\.txt$/);
    await fs.mkdir(onDisk('dir'));
    await expect(files.copy('dir')).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('deletes files and whole trees, ignores missing names, and refuses the root', async () => {
    await fs.mkdir(onDisk('world/region'), { recursive: true });
    await fs.writeFile(onDisk('world/region/r.0.0.mca'), 'data');
    await fs.writeFile(onDisk('log.txt'), 'log');
    await files.delete('/', ['world', 'log.txt', 'ghost']);
    expect(await fs.readdir(sandbox.root)).toEqual([]);
    await expect(files.delete('/', ['.'])).rejects.toMatchObject({ code: 'EINVALID' });
  });

  it('changes modes from octal strings and refuses invalid ones', async () => {
    await fs.writeFile(onDisk('run.sh'), '#!/bin/sh');
    await fs.mkdir(onDisk('dir'));
    await files.chmod('/', [
      { file: 'run.sh', mode: '755' },
      { file: 'dir', mode: '700' },
    ]);
    expect((await fs.stat(onDisk('run.sh'))).mode & 0o777).toBe(0o755);
    expect((await fs.stat(onDisk('dir'))).mode & 0o777).toBe(0o700);
    for (const mode of ['888', 'rwx', '-1', '77777', '']) {
      await expect(files.chmod('/', [{ file: 'run.sh', mode }])).rejects.toMatchObject({ code: 'EINVALID' });
    }
    expect((await fs.stat(onDisk('run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('never sets setuid, setgid or sticky bits: 4755 gives 0755', async () => {
    await fs.writeFile(onDisk('game.bin'), 'x');
    await fs.mkdir(onDisk('shared'));
    await files.chmod('/', [
      { file: 'game.bin', mode: '4755' },
      { file: 'shared', mode: '3777' },
    ]);
    expect((await fs.stat(onDisk('game.bin'))).mode & 0o7777).toBe(0o755);
    expect((await fs.stat(onDisk('shared'))).mode & 0o7777).toBe(0o777);
  });

  it('renames without ever replacing a name that appears between the check and the move', async () => {
    // Files and folders, raced against a name created at the same moment as the move: one of the two wins whole.
    for (const kind of ['file', 'directory'] as const) {
      for (let round = 0; round < 20; round += 1) {
        const source = `${kind}-${round}`;
        if (kind === 'file') await fs.writeFile(onDisk(source), 'mine');
        else await fs.mkdir(onDisk(source));
        const target = `taken-${kind}-${round}`;
        const [moved] = await Promise.allSettled([
          files.rename('/', [{ from: source, to: target }]),
          kind === 'file' ? fs.writeFile(onDisk(target), 'theirs', { flag: 'wx' }) : fs.mkdir(onDisk(target)),
        ]);
        if (moved.status === 'rejected') {
          // The other name was there first: it is untouched and the source is still where it was.
          expect(moved.reason).toMatchObject({ code: 'EEXISTS' });
          expect(await fs.lstat(onDisk(source))).toBeTruthy();
        }
        if (kind === 'file' && moved.status === 'rejected') {
          expect(await fs.readFile(onDisk(target), 'utf8')).toBe('theirs');
        }
      }
    }
  });
});

describe('egg denylist', () => {
  it('refuses write, rename (both sides), copy, delete and chmod on matching paths, but allows reading', async () => {
    await fs.mkdir(onDisk('config'), { recursive: true });
    await fs.writeFile(onDisk('server.jar'), 'jar');
    await fs.writeFile(onDisk('config/secret.yml'), 's');
    await fs.writeFile(onDisk('free.txt'), 'f');
    const guarded = await ServerFilesystem.open({ root: sandbox.root, denylist: ['*.jar', '/config/'] });
    const denied = {
      code: 'EDENIED',
      status: 403,
      message: 'This file cannot be modified: present in egg denylist.',
    };
    await expect(guarded.writeFile('server.jar', 'evil')).rejects.toMatchObject(denied);
    await expect(guarded.writeFile('plugins/other.jar', 'evil')).rejects.toMatchObject(denied);
    await expect(guarded.writeFile('config/secret.yml', 'evil')).rejects.toMatchObject(denied);
    await expect(guarded.rename('/', [{ from: 'server.jar', to: 'x' }])).rejects.toMatchObject(denied);
    await expect(guarded.rename('/', [{ from: 'free.txt', to: 'free.jar' }])).rejects.toMatchObject(denied);
    await expect(guarded.copy('server.jar')).rejects.toMatchObject(denied);
    await expect(guarded.delete('/', ['config'])).rejects.toMatchObject(denied);
    await expect(guarded.chmod('/', [{ file: 'server.jar', mode: '777' }])).rejects.toMatchObject(denied);
    expect(await readAll((await guarded.readFile('server.jar')).stream)).toBe('jar');
    expect(await fs.readFile(onDisk('server.jar'), 'utf8')).toBe('jar');
    expect(await fs.readFile(onDisk('config/secret.yml'), 'utf8')).toBe('s');
    await guarded.writeFile('free.txt', 'ok');
  });
});
