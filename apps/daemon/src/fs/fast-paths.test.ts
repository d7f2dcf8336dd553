import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';
import { ExtractDirectories } from './extract-directories';
import { makeSandbox, type Sandbox } from './fs-test-support';
import { Jail } from './jail';
import { MimeCache } from './mime-cache';
import { ServerFilesystem } from './server-filesystem';

let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = await makeSandbox();
});

afterEach(async () => {
  await sandbox.cleanup();
});

const fakeStats = (changes: Partial<Stats> = {}): Stats =>
  ({ dev: 1, ino: 2, size: 3, mtimeMs: 1_000, ctimeMs: 1_000, ...changes }) as Stats;

describe('remembered mimes', () => {
  it('answer only while dev, inode, size, mtime and ctime are all unchanged', () => {
    const cache = new MimeCache();
    cache.remember('/a', fakeStats(), 'text/plain', 60_000);
    expect(cache.lookup('/a', fakeStats())).toBe('text/plain');
    for (const change of [{ dev: 9 }, { ino: 9 }, { size: 9 }, { mtimeMs: 9 }, { ctimeMs: 1_001 }]) {
      expect(cache.lookup('/a', fakeStats(change)), JSON.stringify(change)).toBeUndefined();
    }
    expect(cache.lookup('/b', fakeStats())).toBeUndefined();
  });

  it('are not kept for a file changed within the last seconds (a write in the same clock tick keeps its ctime)', () => {
    const cache = new MimeCache();
    cache.remember('/a', fakeStats({ ctimeMs: 59_000 }), 'text/plain', 60_000);
    expect(cache.has('/a')).toBe(false);
  });

  it('forget the oldest past their capacity', () => {
    const cache = new MimeCache(2);
    for (const key of ['/a', '/b', '/c']) cache.remember(key, fakeStats(), 'text/plain', 60_000);
    expect([cache.has('/a'), cache.has('/b'), cache.has('/c')]).toEqual([false, true, true]);
  });

  it('never hide a change: a listed file rewritten as binary is listed as binary', async () => {
    const files = await ServerFilesystem.open({ root: sandbox.root });
    const file = path.join(sandbox.root, 'eula');
    await fs.writeFile(file, 'eula=true\n');
    expect((await files.list('/')).find((e) => e.name === 'eula')?.mime).toBe('text/plain');
    await fs.writeFile(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]));
    expect((await files.list('/')).find((e) => e.name === 'eula')?.mime).toBe('application/octet-stream');
  });
});

describe('directories kept open during an extraction', () => {
  it('are re-verified before each use: one moved out of the root is refused', async () => {
    const jail = await Jail.open(sandbox.root);
    const directories = new ExtractDirectories(jail);
    try {
      const first = await directories.get(['a', 'b']);
      expect(await fs.readlink(first.path)).toBe(path.join(sandbox.root, 'a', 'b'));
      // Same descriptor while it stays inside; moved out (as from the host), the next use is refused.
      expect(await directories.get(['a', 'b'])).toBe(first);
      await fs.rename(path.join(sandbox.root, 'a'), path.join(sandbox.base, 'moved'));
      await expect(directories.get(['a', 'b'])).rejects.toMatchObject({ code: 'EOUTSIDE' });
      await fs.rm(path.join(sandbox.base, 'moved'), { recursive: true });
    } finally {
      await directories.closeAll();
    }
  });
});

describe('coalesce', () => {
  it('joins small chunks to the given size and passes large ones through, losing nothing', async () => {
    const big = Buffer.alloc(10, 1);
    const source = async function* () {
      yield Buffer.from('ab');
      yield Buffer.from('cd');
      yield big;
      yield Buffer.from('e');
    };
    const out: Buffer[] = [];
    for await (const chunk of coalesce(source(), 4)) out.push(Buffer.from(chunk));
    expect(out.map((b) => b.toString('hex'))).toEqual([
      Buffer.from('abcd').toString('hex'),
      big.toString('hex'),
      Buffer.from('e').toString('hex'),
    ]);
  });
});
