import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExtractLimits } from './archive-extractor';
import { FilesystemError } from './filesystem-error';
import { buildTar, buildZip, hashTree, makeSandbox, memoryQuota, type Sandbox } from './fs-test-support';
import { ServerFilesystem } from './server-filesystem';

let sandbox: Sandbox;
let files: ServerFilesystem;
let outsideBefore: string;

beforeEach(async () => {
  sandbox = await makeSandbox();
  files = await ServerFilesystem.open({ root: sandbox.root, now: () => new Date(2026, 10, 22, 3, 15, 2) });
  outsideBefore = await sandbox.outsideHash();
});

afterEach(async () => {
  try {
    expect(await sandbox.outsideHash()).toBe(outsideBefore);
  } finally {
    await sandbox.cleanup();
  }
});

const onDisk = (relative: string) => path.join(sandbox.root, relative);

function hasTool(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Puts an archive in the root and returns the root's fingerprint with it, to prove an extraction wrote nothing. */
async function plant(name: string, bytes: Buffer): Promise<string> {
  await fs.writeFile(onDisk(name), bytes);
  return hashTree(sandbox.root);
}

async function refusedWithoutWriting(
  name: string,
  bytes: Buffer,
  options: { limits?: Partial<ExtractLimits>; quota?: ReturnType<typeof memoryQuota>; root?: string } = {},
): Promise<FilesystemError> {
  const rootBefore = await plant(name, bytes);
  const target = await ServerFilesystem.open({
    root: sandbox.root,
    extractLimits: options.limits,
    quota: options.quota,
  });
  const error = await target.archives.decompress(options.root ?? '/', name).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, 'the archive should have been refused').toBeInstanceOf(FilesystemError);
  expect(await hashTree(sandbox.root), 'nothing may be written in the root either').toBe(rootBefore);
  return error as FilesystemError;
}

describe('hostile archives are refused as a whole before anything is written', () => {
  it('zip slip: ../../x', async () => {
    const zip = await buildZip([
      { name: 'ok.txt', content: 'fine' },
      { name: '../../outside/slipped.txt', content: 'pwned' },
    ]);
    const error = await refusedWithoutWriting('slip.zip', zip);
    expect(error.code).toBe('EARCHIVE');
  });

  it('zip slip from a subdirectory root', async () => {
    await fs.mkdir(onDisk('plugins'));
    const zip = await buildZip([{ name: '../../../outside/x.txt', content: 'pwned' }]);
    await refusedWithoutWriting('plugins/slip.zip', zip, { root: '/plugins' });
  });

  it('zip with an absolute entry name', async () => {
    await refusedWithoutWriting('abs.zip', await buildZip([{ name: '/tmp/aerie-abs.txt', content: 'x' }]));
    await expect(fs.access('/tmp/aerie-abs.txt')).rejects.toThrow();
  });

  it('zip with a symlink entry pointing outside, then a file through it', async () => {
    const zip = await buildZip([
      { name: 'evil', content: sandbox.outside, mode: 0o120777, compress: false },
      { name: 'evil/planted.txt', content: 'pwned' },
    ]);
    const error = await refusedWithoutWriting('link.zip', zip);
    expect(error).toMatchObject({ code: 'EARCHIVE' });
    expect(error.message).toContain('"evil"');
  });

  it('tar with ../ in an entry name', async () => {
    const tar = await buildTar([
      { name: 'ok.txt', content: 'fine' },
      { name: 'a/../../outside/slipped.txt', content: 'pwned' },
    ]);
    expect((await refusedWithoutWriting('slip.tar', tar)).code).toBe('EARCHIVE');
  });

  it('tar with an absolute entry name', async () => {
    const tar = await buildTar([{ name: `${sandbox.outside}/absolute.txt`, content: 'pwned' }]);
    const error = await refusedWithoutWriting('abs.tar', tar);
    expect(error.message).toContain('absolute path');
  });

  it('tar.gz with a symlink to the host and then a file through it', async () => {
    const tar = await buildTar([
      { name: 'ok.txt', content: 'fine' },
      { name: 'evil', type: 'symlink', linkname: sandbox.outside },
      { name: 'evil/planted.txt', content: 'pwned' },
    ]);
    await refusedWithoutWriting('link.tar.gz', gzipSync(tar));
  });

  it('tar with a relative symlink that climbs out, and one to /etc', async () => {
    await refusedWithoutWriting(
      'rel.tar',
      await buildTar([{ name: 'sub/up', type: 'symlink', linkname: '../../outside' }]),
    );
    await refusedWithoutWriting(
      'etc.tar',
      await buildTar([{ name: 'etc', type: 'symlink', linkname: '/etc' }]),
    );
  });

  it('tar with a hard link entry to a file outside', async () => {
    const tar = await buildTar([
      { name: 'ok.txt', content: 'fine' },
      { name: 'stolen', type: 'link', linkname: `${sandbox.outside}/secret.txt` },
    ]);
    const error = await refusedWithoutWriting('hard.tar', tar);
    expect(error.message).toContain('hard link');
    await refusedWithoutWriting(
      'hard2.tar',
      await buildTar([{ name: 'stolen', type: 'link', linkname: '../outside/secret.txt' }]),
    );
  });

  it('zip bomb by entry count (refused from the central directory alone)', async () => {
    const zip = await buildZip(
      Array.from({ length: 51 }, (_, index) => ({ name: `f${index}.txt`, content: '' })),
    );
    const error = await refusedWithoutWriting('count.zip', zip, { limits: { maxEntries: 50 } });
    expect(error.code).toBe('ETOOMANY');
  });

  it('tar bomb by entry count', async () => {
    const tar = await buildTar(
      Array.from({ length: 51 }, (_, index) => ({ name: `f${index}`, content: '' })),
    );
    expect((await refusedWithoutWriting('count.tar', tar, { limits: { maxEntries: 50 } })).code).toBe(
      'ETOOMANY',
    );
  });

  it('size bomb by compression ratio (tar.gz and zip)', async () => {
    const zeros = Buffer.alloc(4 * 1024 * 1024);
    const limits = { maxRatio: 100, ratioFloorBytes: 1024 * 1024 };
    const tarGz = gzipSync(await buildTar([{ name: 'zeros.bin', content: zeros }]));
    expect((await refusedWithoutWriting('ratio.tar.gz', tarGz, { limits })).code).toBe('ETOOBIG');
    const zip = await buildZip([{ name: 'zeros.bin', content: zeros }]);
    expect((await refusedWithoutWriting('ratio.zip', zip, { limits })).code).toBe('ETOOBIG');
  });

  it('the absolute size cap and the quota', async () => {
    const tar = await buildTar([{ name: 'big.bin', content: randomBytes(64 * 1024) }]);
    expect((await refusedWithoutWriting('cap.tar', tar, { limits: { maxTotalBytes: 32 * 1024 } })).code).toBe(
      'ETOOBIG',
    );
    const quota = memoryQuota(100 * 1024, 50 * 1024);
    expect((await refusedWithoutWriting('quota.tar', tar, { quota })).code).toBe('EQUOTA');
  });

  it('a zip whose headers understate the size cannot write past what they declare', async () => {
    const zip = await buildZip([{ name: 'liar.bin', content: Buffer.alloc(100_000, 7) }]);
    // Declare 10 bytes in both the local and the central header.
    for (const [signature, offset] of [
      [0x04034b50, 22],
      [0x02014b50, 24],
    ] as const) {
      const at = zip.indexOf(Buffer.from(new Uint32Array([signature]).buffer));
      zip.writeUInt32LE(10, at + offset);
    }
    await fs.writeFile(onDisk('liar.zip'), zip);
    await expect(files.archives.decompress('/', 'liar.zip')).rejects.toBeInstanceOf(FilesystemError);
    const written = await fs.stat(onDisk('liar.bin')).catch(() => undefined);
    expect(written === undefined || written.size <= 10).toBe(true);
  });

  it('an unknown format, a damaged gzip and a plain file are refused with the format message', async () => {
    const error = await refusedWithoutWriting(
      'thing.rar',
      Buffer.concat([Buffer.from('Rar!\x1a\x07\x00'), randomBytes(64)]),
    );
    expect(error).toMatchObject({
      code: 'EUNSUPPORTED',
      message: 'The archive provided is in a format Wings does not understand.',
    });
    const damaged = gzipSync(await buildTar([{ name: 'a.txt', content: 'a'.repeat(5000) }])).subarray(0, 60);
    expect((await refusedWithoutWriting('damaged.tar.gz', damaged)).code).toBe('EARCHIVE');
    expect((await refusedWithoutWriting('notes.txt', Buffer.from('just text'))).code).toBe('EUNSUPPORTED');
  });
});

describe('what a decompress leaves out', () => {
  it('skips links that stay inside, denylisted entries and special files, and reports them', async () => {
    const tar = await buildTar([
      { name: 'ok.txt', content: 'fine' },
      { name: 'alias', type: 'symlink', linkname: 'ok.txt' },
      { name: 'server.jar', content: 'replaced jar' },
    ]);
    await fs.writeFile(onDisk('server.jar'), 'original jar');
    await fs.writeFile(onDisk('in.tar'), tar);
    const guarded = await ServerFilesystem.open({ root: sandbox.root, denylist: ['*.jar'] });
    const result = await guarded.archives.decompress('/', 'in.tar');
    expect(result.entries).toBe(1);
    expect(result.skipped.map((skip) => skip.name)).toEqual(['alias', 'server.jar']);
    expect(await fs.readFile(onDisk('ok.txt'), 'utf8')).toBe('fine');
    expect(await fs.readFile(onDisk('server.jar'), 'utf8')).toBe('original jar');
    await expect(fs.lstat(onDisk('alias'))).rejects.toThrow();
  });

  it('skips a denylisted zip entry and carries on with the next', async () => {
    const zip = await buildZip([
      { name: 'server.jar', content: 'replaced jar'.repeat(1000) },
      { name: 'after.txt', content: 'after' },
    ]);
    await fs.writeFile(onDisk('in.zip'), zip);
    const guarded = await ServerFilesystem.open({ root: sandbox.root, denylist: ['*.jar'] });
    const result = await guarded.archives.decompress('/', 'in.zip');
    expect(result).toMatchObject({
      entries: 1,
      skipped: [{ name: 'server.jar', reason: 'present in the egg denylist' }],
    });
    expect(await fs.readFile(onDisk('after.txt'), 'utf8')).toBe('after');
    await expect(fs.access(onDisk('server.jar'))).rejects.toThrow();
  });

  it('never writes through a link the game left where an entry lands', async () => {
    await fs.symlink(path.join(sandbox.outside, 'secret.txt'), onDisk('config.yml'));
    await fs.writeFile(onDisk('in.tar'), await buildTar([{ name: 'config.yml', content: 'pwned' }]));
    const result = await files.archives.decompress('/', 'in.tar');
    expect(result.skipped).toEqual([{ name: 'config.yml', reason: 'a symbolic link of that name exists' }]);
  });

  it('never extracts into a directory link the game left that leaves the root', async () => {
    await fs.symlink(sandbox.outside, onDisk('world'));
    await fs.writeFile(onDisk('in.tar'), await buildTar([{ name: 'world/planted.txt', content: 'pwned' }]));
    await expect(files.archives.decompress('/', 'in.tar')).rejects.toMatchObject({ code: 'EOUTSIDE' });
  });
});

describe('compress', () => {
  async function makeTree(): Promise<void> {
    await fs.mkdir(onDisk('world/region'), { recursive: true });
    await fs.mkdir(onDisk('world/empty'));
    await fs.writeFile(onDisk('world/level.dat'), randomBytes(3000));
    await fs.writeFile(onDisk('world/region/r.0.0.mca'), randomBytes(70_000));
    await fs.writeFile(onDisk('world/empty.txt'), '');
    await fs.writeFile(onDisk('start.sh'), '#!/bin/sh\necho start\n', { mode: 0o755 });
    await fs.symlink('level.dat', onDisk('world/latest'));
  }

  it('names the archive archive-YYYY-MM-DDTHHMMSS±ZZZZ.tar.gz in the chosen directory', async () => {
    await makeTree();
    const archive = await files.archives.compress('/', ['world', 'start.sh']);
    expect(archive.name).toMatch(/^archive-2026-11-22T031502[+-]\d{4}\.tar\.gz$/);
    expect(archive).toMatchObject({ file: true, mime: 'application/gzip' });
    expect(archive.size).toBe((await fs.stat(onDisk(archive.name))).size);
    const zip = await files.archives.compress('/world', ['region'], 'zip');
    expect(zip.name).toMatch(/^archive-2026-11-22T031502[+-]\d{4}\.zip$/);
    await expect(fs.access(onDisk(`world/${zip.name}`))).resolves.toBeUndefined();
    // A second archive in the same second gets its own name.
    expect((await files.archives.compress('/', ['start.sh'])).name).not.toBe(archive.name);
  });

  it('stores symlinks as links (readable by the system tar)', async () => {
    await makeTree();
    const archive = await files.archives.compress('/', ['world']);
    const listing = execFileSync('tar', ['-tvzf', onDisk(archive.name)], { encoding: 'utf8' });
    expect(listing).toMatch(/^l.* world\/latest -> level\.dat$/m);
    expect(listing).toMatch(/world\/region\/r\.0\.0\.mca/);
  });

  it.each(['tar.gz', 'zip'] as const)(
    'round-trips a tree through %s with the same contents and modes',
    async (format) => {
      await makeTree();
      const original = await hashTree(sandbox.root, (relative) => relative === 'world/latest', false);
      const archive = await files.archives.compress('/', ['world', 'start.sh'], format);
      await files.delete('/', ['world', 'start.sh']);
      const result = await files.archives.decompress('/', archive.name);
      expect(result.skipped.map((skip) => skip.name)).toEqual(['world/latest']);
      await files.delete('/', [archive.name]);
      expect(await hashTree(sandbox.root, () => false, false)).toBe(original);
    },
  );

  it.each([
    ['tar.bz2', 'bzip2', '-cjf'],
    ['tar.xz', 'xz', '-cJf'],
    ['tar.zst', 'zstd', '--zstd -cf'],
  ])('decompresses %s made by the system tar when %s is installed', async (extension, tool, flags) => {
    if (!hasTool(tool)) return;
    await fs.mkdir(path.join(sandbox.base, 'src/data'), { recursive: true });
    await fs.writeFile(path.join(sandbox.base, 'src/data/a.txt'), 'alpha');
    execFileSync('sh', ['-c', `tar ${flags} "${onDisk(`in.${extension}`)}" -C "${sandbox.base}/src" data`]);
    await fs.rm(path.join(sandbox.base, 'src'), { recursive: true });
    outsideBefore = await sandbox.outsideHash();
    const result = await files.archives.decompress('/', `in.${extension}`);
    expect(result.entries).toBe(2);
    expect(await fs.readFile(onDisk('data/a.txt'), 'utf8')).toBe('alpha');
  });
});

describe('decompression cost is bounded', () => {
  it('stops reading a gzip stream of zeros behind a small tar instead of inflating it all', async () => {
    const tar = await buildTar([{ name: 'small.txt', content: 'small' }]);
    const bomb = gzipSync(Buffer.concat([tar, Buffer.alloc(16 * 1024 * 1024)]));
    const limits = { maxEntries: 100, maxRatio: 10, ratioFloorBytes: 1024 * 1024 };
    expect((await refusedWithoutWriting('trailing.tar.gz', bomb, { limits })).code).toBe('ETOOBIG');
  });
});
