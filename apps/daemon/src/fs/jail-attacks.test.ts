import { statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilesystemError } from './filesystem-error';
import { buildTar, makeSandbox, readAll, type Sandbox } from './fs-test-support';
import { ServerFilesystem } from './server-filesystem';

/**
 * The jail's attack suite: every operation, every parameter, fed `..`, absolute paths and symlinks that lead out
 * of the root (to a sentinel directory next to it, and to /etc). Each attempt must be refused AND leave everything
 * outside the root byte-for-byte as it was.
 */

let sandbox: Sandbox;
let files: ServerFilesystem;
let before: string;
const etcPasswd = statSync('/etc/passwd');

beforeEach(async () => {
  sandbox = await makeSandbox();
  const root = sandbox.root;
  await fs.writeFile(path.join(root, 'inside.txt'), 'inside');
  await fs.mkdir(path.join(root, 'plugins'));
  // Links an egg, an unpacked archive or the game itself could leave in the server directory.
  await fs.symlink(sandbox.outside, path.join(root, 'out'));
  await fs.symlink('../outside', path.join(root, 'rel'));
  await fs.symlink(path.join(sandbox.outside, 'secret.txt'), path.join(root, 'secret'));
  await fs.symlink('/etc', path.join(root, 'etc'));
  await fs.symlink('/etc/passwd', path.join(root, 'passwd'));
  await fs.symlink(path.join(sandbox.outside, 'made-by-attack'), path.join(root, 'dangling'));
  await fs.symlink(path.join(sandbox.outside, 'created.txt'), path.join(root, 'dangling-file'));
  await fs.writeFile(
    path.join(sandbox.outside, 'payload.tar'),
    await buildTar([{ name: 'x.txt', content: 'x' }]),
  );
  files = await ServerFilesystem.open({ root });
  before = await sandbox.outsideHash();
});

afterEach(async () => {
  try {
    // Nothing outside the root changed, whatever the test did.
    expect(await sandbox.outsideHash()).toBe(before);
    const passwd = statSync('/etc/passwd');
    expect([passwd.mode, passwd.size, passwd.mtimeMs]).toEqual([
      etcPasswd.mode,
      etcPasswd.size,
      etcPasswd.mtimeMs,
    ]);
    for (const name of ['aerie-pwned', 'passwd copy', 'hostname copy', 'x.txt']) {
      await expect(fs.lstat(path.join('/etc', name))).rejects.toThrow();
    }
  } finally {
    await sandbox.cleanup();
  }
});

async function expectRefused(attempt: () => Promise<unknown>): Promise<FilesystemError> {
  const error = await attempt().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, 'the operation should have been refused').toBeInstanceOf(FilesystemError);
  return error as FilesystemError;
}

const TRAVERSALS = ['..', '../', '/..', '../outside', '/../outside', 'plugins/../../outside', './../outside'];
const LEAVING_DIRECTORIES = [
  ...TRAVERSALS,
  'out',
  'rel',
  'etc',
  'out/nested',
  'rel/nested',
  'plugins/../out',
];
const LEAVING_FILES = [
  '../outside/secret.txt',
  '/../outside/secret.txt',
  '../../../../../../etc/passwd',
  'plugins/../../outside/secret.txt',
  'out/secret.txt',
  'rel/secret.txt',
  'out/nested/keys',
  'secret',
  'passwd',
  'etc/passwd',
  'etc/hostname',
];
const NEW_FILES_OUTSIDE = [
  '../outside/new.txt',
  '/../../aerie-pwned',
  'out/new.txt',
  'rel/nested/new.txt',
  'dangling/new.txt',
  'dangling-file',
  'secret',
  'out/nested/keys',
  'etc/aerie-pwned',
  '../../../../../../etc/aerie-pwned',
];

describe('list and stat', () => {
  it.each(LEAVING_DIRECTORIES)('list(%j) is refused', async (directory) => {
    await expectRefused(() => files.list(directory));
  });

  it('refuses `..` and links out with 404 and the not-found message (nothing about the host leaks)', async () => {
    const error = await expectRefused(() => files.list('../outside'));
    expect(error).toMatchObject({ code: 'EOUTSIDE', status: 404 });
    expect(error.message).toBe('The requested resources was not found on the system.');
    expect(await expectRefused(() => files.list('out'))).toMatchObject({ code: 'EOUTSIDE', status: 404 });
  });

  it.each(LEAVING_FILES.filter((file) => !['secret', 'passwd'].includes(file)))(
    'stat(%j) is refused',
    async (file) => {
      await expectRefused(() => files.stat(file));
    },
  );

  it('describes a link to the host as a link, without looking at its target', async () => {
    const entries = await files.list('/');
    const passwd = entries.find((entry) => entry.name === 'passwd');
    expect(passwd).toMatchObject({ symlink: true, file: false, mime: 'inode/symlink' });
    expect(passwd?.size).toBe('/etc/passwd'.length);
  });
});

describe('read', () => {
  it.each(LEAVING_FILES)('readFile(%j) is refused', async (file) => {
    await expectRefused(() => files.readFile(file));
  });

  it('reads a link to a file inside the root neither (final names are never followed)', async () => {
    await fs.symlink('inside.txt', path.join(sandbox.root, 'alias'));
    expect(await expectRefused(() => files.readFile('alias'))).toMatchObject({ code: 'ESYMLINK' });
    expect(await readAll((await files.readFile('inside.txt')).stream)).toBe('inside');
  });
});

describe('write and create-folder', () => {
  it.each(NEW_FILES_OUTSIDE)('writeFile(%j) is refused and creates nothing', async (file) => {
    await expectRefused(() => files.writeFile(file, 'pwned'));
    await expect(fs.lstat(path.join(sandbox.outside, 'created.txt'))).rejects.toThrow();
    await expect(fs.lstat(path.join(sandbox.outside, 'made-by-attack'))).rejects.toThrow();
  });

  it('refuses an upload whose file name walks out of the upload directory', async () => {
    // As the upload route joins the directory query and the multipart file name.
    for (const name of ['../../outside/evil.txt', '../../../etc/aerie-pwned', '/../../x']) {
      await expectRefused(() => files.writeFile(`/plugins/${name}`, 'evil'));
    }
    // A backslash is an ordinary character on Linux: the file lands inside the upload directory.
    await files.writeFile('/plugins/..\\..\\evil.txt', 'harmless');
    expect(await fs.readdir(path.join(sandbox.root, 'plugins'))).toEqual(['..\\..\\evil.txt']);
  });

  it.each([
    ['x', '../outside'],
    ['../outside/x', '/'],
    ['x', 'out'],
    ['x', 'rel/nested'],
    ['x', 'dangling'],
    ['nested/x', 'dangling'],
    ['aerie-pwned', 'etc'],
    ['../../etc/aerie-pwned', '/plugins'],
  ])('createDirectory(%j, %j) is refused', async (name, directory) => {
    await expectRefused(() => files.createDirectory(name, directory));
    await expect(fs.lstat(path.join(sandbox.outside, 'made-by-attack'))).rejects.toThrow();
  });
});

describe('rename, copy, delete', () => {
  it.each([
    ['../outside', 'secret.txt', 'stolen.txt'],
    ['/', '../outside/secret.txt', 'stolen.txt'],
    ['/', 'out/secret.txt', 'stolen.txt'],
    ['/', 'rel/nested', 'stolen'],
    ['/', 'inside.txt', '../outside/planted.txt'],
    ['/', 'inside.txt', 'out/planted.txt'],
    ['/', 'inside.txt', 'dangling/planted.txt'],
    ['/', 'inside.txt', 'etc/aerie-pwned'],
    ['/plugins', '../inside.txt', '../../outside/planted.txt'],
  ])('rename(%j, %j → %j) is refused', async (root, from, to) => {
    await expectRefused(() => files.rename(root, [{ from, to }]));
    expect(await fs.readFile(path.join(sandbox.root, 'inside.txt'), 'utf8')).toBe('inside');
  });

  it.each(['secret', 'out', 'etc', 'dangling-file'])(
    'rename over the symlink %j is refused',
    async (link) => {
      expect(await expectRefused(() => files.rename('/', [{ from: 'inside.txt', to: link }]))).toMatchObject({
        code: 'EEXISTS',
      });
      expect((await fs.lstat(path.join(sandbox.root, link))).isSymbolicLink()).toBe(true);
      expect(await fs.readFile(path.join(sandbox.root, 'inside.txt'), 'utf8')).toBe('inside');
    },
  );

  it('checks every pair before moving anything', async () => {
    await expectRefused(() =>
      files.rename('/', [
        { from: 'inside.txt', to: 'moved.txt' },
        { from: 'plugins', to: '../outside/plugins' },
      ]),
    );
    expect(await fs.readFile(path.join(sandbox.root, 'inside.txt'), 'utf8')).toBe('inside');
  });

  it.each(LEAVING_FILES)('copy(%j) is refused', async (file) => {
    await expectRefused(() => files.copy(file));
  });

  it.each([
    ['../outside', ['secret.txt']],
    ['/', ['../outside']],
    ['/', ['../outside/secret.txt']],
    ['/', ['out/secret.txt']],
    ['/', ['out/nested']],
    ['/', ['rel/nested/keys']],
    ['/plugins', ['../../outside']],
    ['/', ['inside.txt', '../sibling.txt']],
  ])('delete(%j, %j) is refused', async (root, targets) => {
    await expectRefused(() => files.delete(root, targets));
    expect(await fs.readFile(path.join(sandbox.root, 'inside.txt'), 'utf8')).toBe('inside');
  });

  it('deletes links themselves, never what they point to (CVE-2023-25168)', async () => {
    await fs.mkdir(path.join(sandbox.root, 'world'));
    await fs.symlink(sandbox.outside, path.join(sandbox.root, 'world', 'escape'));
    await files.delete('/', ['out', 'rel', 'secret', 'etc', 'world']);
    const left = await fs.readdir(sandbox.root);
    expect(left.sort()).toEqual(['dangling', 'dangling-file', 'inside.txt', 'passwd', 'plugins']);
  });
});

describe('chmod (GHSA-rhq6-9rgh-v45c)', () => {
  it.each([
    ['../outside', 'secret.txt'],
    ['/', '../outside/secret.txt'],
    ['/', 'out/secret.txt'],
    ['/', 'rel/nested'],
    ['/', 'secret'],
    ['/', 'out'],
    ['/', 'passwd'],
    ['/', 'etc/passwd'],
    ['/', 'etc'],
  ])('chmod(%j, %j) is refused', async (root, file) => {
    // Through /etc the requested mode is the one the file already has: should the jail ever break, the test
    // fails on the missing refusal without loosening the host's files (these suites may run as root).
    const host =
      file === 'etc' ? '/etc' : file === 'passwd' || file === 'etc/passwd' ? '/etc/passwd' : undefined;
    const mode = host === undefined ? '777' : (statSync(host).mode & 0o777).toString(8);
    await expectRefused(() => files.chmod(root, [{ file, mode }]));
  });

  it('refuses a link by name with a clear code', async () => {
    expect(await expectRefused(() => files.chmod('/', [{ file: 'secret', mode: '666' }]))).toMatchObject({
      code: 'ESYMLINK',
    });
  });
});

describe('archives', () => {
  it.each([
    ['../outside', ['secret.txt']],
    ['/', ['../outside']],
    ['/', ['out/secret.txt']],
    ['/', ['rel/nested']],
    ['/plugins', ['../inside.txt']],
    ['out', ['secret.txt']],
  ])('compress(%j, %j) is refused', async (root, selection) => {
    await expectRefused(() => files.archives.compress(root, selection));
  });

  it('stores a link to the host as a link: the archive never holds the host file', async () => {
    const archive = await files.archives.compress('/', ['out', 'secret', 'inside.txt']);
    const bytes = await readAll((await files.readFile(archive.name)).stream);
    expect(bytes).not.toContain('TOP SECRET');
    const { gunzipSync } = await import('node:zlib');
    const tarBytes = gunzipSync(await fs.readFile(path.join(sandbox.root, archive.name))).toString('latin1');
    expect(tarBytes).not.toContain('TOP SECRET');
    expect(tarBytes).toContain(sandbox.outside);
  });

  it.each([
    ['../outside', 'payload.tar'],
    ['/', '../outside/payload.tar'],
    ['/', 'out/payload.tar'],
    ['out', 'payload.tar'],
    ['/', 'etc/passwd'],
  ])('decompress(%j, %j) is refused', async (root, file) => {
    await expectRefused(() => files.archives.decompress(root, file));
  });

  it('does not extract into a linked directory that leaves the root', async () => {
    await fs.writeFile(
      path.join(sandbox.root, 'safe.tar'),
      await buildTar([{ name: 'x.txt', content: 'x' }]),
    );
    await expectRefused(() => files.archives.decompress('out', '../safe.tar'));
    await expectRefused(() => files.archives.decompress('rel/nested', '../../safe.tar'));
  });
});

describe('a symlink the game process creates while the daemon runs', () => {
  it('is refused for every operation that would go through it', async () => {
    // The instance was opened before the link existed: nothing was cached about it.
    await fs.symlink(sandbox.outside, path.join(sandbox.root, 'world'));
    await fs.symlink(path.join(sandbox.outside, 'nested', 'keys'), path.join(sandbox.root, 'keys'));
    await expectRefused(() => files.list('world'));
    await expectRefused(() => files.readFile('world/secret.txt'));
    await expectRefused(() => files.readFile('keys'));
    await expectRefused(() => files.writeFile('world/new.txt', 'x'));
    await expectRefused(() => files.writeFile('keys', 'ssh-ed25519 attacker'));
    await expectRefused(() => files.copy('world/secret.txt'));
    await expectRefused(() => files.rename('/', [{ from: 'world/secret.txt', to: 'stolen' }]));
    await expectRefused(() => files.chmod('/', [{ file: 'keys', mode: '777' }]));
    await expectRefused(() => files.chmod('/', [{ file: 'world/nested', mode: '777' }]));
    await expectRefused(() => files.delete('/', ['world/nested']));
    await files.delete('/', ['world', 'keys']);
  });
});
