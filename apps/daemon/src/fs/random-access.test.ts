import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFilesystemError } from './filesystem-error';
import { makeSandbox, memoryQuota, type Sandbox } from './fs-test-support';
import { ServerFilesystem } from './server-filesystem';

/** openFile, readDirectory and the single-name operations the SFTP server uses. */
let sandbox: Sandbox;
const onDisk = (relative: string) => path.join(sandbox.root, relative);
const WRITE = { read: false, write: true, create: true, truncate: true, exclusive: false, append: false };
const READ = { read: true, write: false, create: false, truncate: false, exclusive: false, append: false };
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (isFilesystemError(error) ? error.code : String(error)),
  );

beforeEach(async () => {
  sandbox = await makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe('openFile', () => {
  it('writes at any offset, reads back, and settles the growth with the quota on close', async () => {
    const quota = memoryQuota(1024 * 1024);
    const files = await ServerFilesystem.open({ root: sandbox.root, quota });
    const file = await files.sftp.openFile('/maps/world.dat', WRITE);
    await file.write(5, Buffer.from('world'));
    await file.write(0, Buffer.from('hello'));
    expect(quota.reservedBytes).toBe(10);
    await file.close();
    expect(quota.reservedBytes).toBe(0);
    expect(quota.used).toBe(10);
    expect(await fs.readFile(onDisk('maps/world.dat'), 'utf8')).toBe('helloworld');
    expect((await fs.stat(onDisk('maps/world.dat'))).mode & 0o777).toBe(0o644);

    const reader = await files.sftp.openFile('/maps/world.dat', READ);
    expect((await reader.read(3, 4)).toString()).toBe('lowo');
    expect((await reader.read(10, 4)).length).toBe(0);
    await expect(reader.write(0, Buffer.from('x'))).rejects.toThrow('reading only');
    await reader.close();
  });

  it('refuses the write that would pass the limit before any of it lands, and keeps what fit', async () => {
    const quota = memoryQuota(100_000, 60_000);
    const files = await ServerFilesystem.open({ root: sandbox.root, quota });
    const file = await files.sftp.openFile('/big.bin', WRITE);
    const chunk = Buffer.alloc(16_384, 7);
    let offset = 0;
    let refusal = '';
    for (let i = 0; i < 10; i++) {
      const outcome = await code(file.write(offset, chunk));
      if (outcome !== 'ok') {
        refusal = outcome;
        break;
      }
      offset += chunk.length;
    }
    expect(refusal).toBe('EQUOTA');
    expect(offset).toBe(2 * 16_384);
    await file.close();
    expect((await fs.stat(onDisk('big.bin'))).size).toBe(offset);
    expect(quota.used).toBe(60_000 + offset);
    expect(quota.used).toBeLessThanOrEqual(100_000);
    // A sparse write far past the end is growth too.
    const sparse = await files.sftp.openFile('/sparse.bin', WRITE);
    expect(await code(sparse.write(10_000_000, Buffer.from('x')))).toBe('EQUOTA');
    expect(await code(sparse.setSize(10_000_000))).toBe('EQUOTA');
    await sparse.close();
  });

  it('frees a truncated file at once and never follows or writes through links', async () => {
    const quota = memoryQuota(0, 500);
    const files = await ServerFilesystem.open({ root: sandbox.root, quota });
    await fs.writeFile(onDisk('old.txt'), 'x'.repeat(300));
    quota.add(0);
    const file = await files.sftp.openFile('/old.txt', WRITE);
    expect(quota.used).toBe(200);
    await file.close();

    await fs.symlink(path.join(sandbox.outside, 'secret.txt'), onDisk('escape'));
    await fs.symlink('old.txt', onDisk('inside-link'));
    await fs.link(path.join(sandbox.outside, 'nested', 'keys'), onDisk('hard')).catch(() => undefined);
    const before = await sandbox.outsideHash();
    expect(await code(files.sftp.openFile('/escape', READ))).toBe('ESYMLINK');
    expect(await code(files.sftp.openFile('/escape', WRITE))).toBe('ESYMLINK');
    expect(await code(files.sftp.openFile('/inside-link', READ))).toBe('ESYMLINK');
    expect(await code(files.sftp.openFile('/../outside/secret.txt', READ))).toBe('EOUTSIDE');
    if ((await fs.lstat(onDisk('hard')).catch(() => undefined))?.nlink === 2) {
      expect(await code(files.sftp.openFile('/hard', WRITE))).toBe('EINVALID');
    }
    expect(await code(files.sftp.openFile('/missing', READ))).toBe('ENOTFOUND');
    expect(await code(files.sftp.openFile('/old.txt', { ...WRITE, exclusive: true }))).toBe('EEXISTS');
    expect(await sandbox.outsideHash()).toBe(before);
  });

  it('applies the egg denylist to writes, not to reads', async () => {
    await fs.writeFile(onDisk('server.jar'), 'jar');
    const files = await ServerFilesystem.open({ root: sandbox.root, denylist: ['*.jar'] });
    expect(await code(files.sftp.openFile('/server.jar', WRITE))).toBe('EDENIED');
    expect(await code(files.sftp.openFile('/new.jar', WRITE))).toBe('EDENIED');
    const reader = await files.sftp.openFile('/server.jar', READ);
    expect((await reader.read(0, 10)).toString()).toBe('jar');
    await reader.close();
  });
});

describe('readDirectory', () => {
  it('hands out every name in batches with its lstat, links as links', async () => {
    for (let i = 0; i < 25; i++) await fs.writeFile(onDisk(`f${i}`), String(i));
    await fs.mkdir(onDisk('sub'));
    await fs.symlink(sandbox.outside, onDisk('out'));
    const files = await ServerFilesystem.open({ root: sandbox.root });
    const reader = await files.sftp.readDirectory('/');
    const seen = new Map<string, string>();
    for (let batch = await reader.next(10); batch !== null; batch = await reader.next(10)) {
      expect(batch.length).toBeLessThanOrEqual(10);
      for (const entry of batch) {
        seen.set(
          entry.name,
          entry.stats.isSymbolicLink() ? 'link' : entry.stats.isDirectory() ? 'dir' : 'file',
        );
      }
    }
    await reader.close();
    expect(seen.size).toBe(27);
    expect(seen.get('out')).toBe('link');
    expect(seen.get('sub')).toBe('dir');
    expect(await code(files.sftp.readDirectory('/out'))).toBe('EOUTSIDE');
    expect(await code(files.sftp.readDirectory('/..'))).toBe('EOUTSIDE');
  });
});

describe('single-name operations', () => {
  it('stat follows a link only to where it lands inside the root', async () => {
    await fs.mkdir(onDisk('plugins'));
    await fs.symlink('plugins', onDisk('inside'));
    await fs.symlink(sandbox.outside, onDisk('outside'));
    const files = await ServerFilesystem.open({ root: sandbox.root });
    expect((await files.sftp.statOf('/inside')).isDirectory()).toBe(true);
    expect((await files.sftp.statOf('/outside')).isSymbolicLink()).toBe(true);
    expect((await files.lstatOf('/inside')).isSymbolicLink()).toBe(true);
    expect((await files.sftp.statOf('/')).isDirectory()).toBe(true);
  });

  it('creates links only to relative places inside the root', async () => {
    await fs.mkdir(onDisk('a'));
    const files = await ServerFilesystem.open({ root: sandbox.root });
    await files.sftp.createSymlink('/a/up', '../server.properties');
    expect(await fs.readlink(onDisk('a/up'))).toBe('../server.properties');
    expect(await files.sftp.readLink('/a/up')).toBe('../server.properties');
    for (const target of ['/etc/passwd', '../../outside', '../../../', '', sandbox.outside]) {
      expect(await code(files.sftp.createSymlink('/a/bad', target))).toBe('EINVALID');
    }
    expect(await code(fs.lstat(onDisk('a/bad')))).not.toBe('ok');
    expect(await code(files.sftp.createSymlink('/a/up', 'x'))).toBe('EEXISTS');
  });

  it('removes files and only empty directories, freeing their bytes', async () => {
    const quota = memoryQuota(0, 1000);
    const files = await ServerFilesystem.open({ root: sandbox.root, quota });
    await fs.mkdir(onDisk('full'));
    await fs.writeFile(onDisk('full/a'), 'x'.repeat(100));
    await fs.mkdir(onDisk('empty'));
    expect(await code(files.sftp.removeDirectory('/full'))).toBe('EINVALID');
    expect(await code(files.sftp.removeFile('/full'))).toBe('EISDIR');
    await files.sftp.removeFile('/full/a');
    expect(quota.used).toBe(900);
    await files.sftp.removeDirectory('/full');
    await files.sftp.removeDirectory('/empty');
    expect(await fs.readdir(sandbox.root)).toEqual([]);
    expect(await code(files.sftp.removeDirectory('/'))).toBe('EINVALID');
  });

  it('sets times without following a link', async () => {
    await fs.writeFile(onDisk('t.txt'), 't');
    await fs.symlink(path.join(sandbox.outside, 'secret.txt'), onDisk('link'));
    const files = await ServerFilesystem.open({ root: sandbox.root });
    await files.sftp.setTimes('/t.txt', 1_000_000, 2_000_000);
    expect((await fs.stat(onDisk('t.txt'))).mtimeMs).toBe(2_000_000_000);
    const before = await sandbox.outsideHash();
    expect(await code(files.sftp.setTimes('/link', 1, 1))).toBe('ESYMLINK');
    expect(await sandbox.outsideHash()).toBe(before);
  });
});
