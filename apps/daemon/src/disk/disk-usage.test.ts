import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverDirectory } from '../testing/server-fixtures';
import { countDirectoryBytes, DiskUsage } from './disk-usage';

let directory: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ directory, cleanup } = await serverDirectory());
});
afterEach(() => cleanup());

describe('disk usage', () => {
  it('sums regular files in every subdirectory and never follows symlinks', async () => {
    await mkdir(path.join(directory, 'a/b'), { recursive: true });
    await writeFile(path.join(directory, 'one.txt'), 'x'.repeat(1000));
    await writeFile(path.join(directory, 'a/b/two.bin'), Buffer.alloc(5000));
    // A link to a large file and one to a directory outside: neither counts.
    await symlink('/usr/bin', path.join(directory, 'outside'));
    await symlink(path.join(directory, 'a/b/two.bin'), path.join(directory, 'again.bin'));
    expect(await countDirectoryBytes(directory)).toBe(6000);
  });

  it('keeps the last count until it is stale, and shares one count in flight', async () => {
    let now = 0;
    const usage = new DiskUsage(directory, { staleAfterMs: 150_000, now: () => now });
    await writeFile(path.join(directory, 'file'), Buffer.alloc(100));
    expect(usage.stale).toBe(true);
    const first = usage.count();
    expect(usage.count()).toBe(first);
    expect(await first).toBe(100);
    await writeFile(path.join(directory, 'more'), Buffer.alloc(50));
    now = 149_999;
    expect(await usage.refreshIfStale()).toBe(100);
    now = 150_000;
    expect(await usage.refreshIfStale()).toBe(150);
    expect(usage.bytes).toBe(150);
  });

  it('counts an empty or missing directory as 0', async () => {
    expect(await countDirectoryBytes(directory)).toBe(0);
    expect(await countDirectoryBytes(path.join(directory, 'missing'))).toBe(0);
  });

  it("adjusts the last count by the daemon's own writes, never below 0, until the next walk", async () => {
    await writeFile(path.join(directory, 'a.bin'), Buffer.alloc(100));
    const usage = new DiskUsage(directory);
    await usage.count();
    usage.add(50);
    expect(usage.bytes).toBe(150);
    usage.add(-500);
    expect(usage.bytes).toBe(0);
    expect(await usage.count()).toBe(100);
  });
});
