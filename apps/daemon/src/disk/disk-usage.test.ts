import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serverDirectory } from '@aerie/daemon/testing/server-fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countDirectoryBytes, DiskUsage, RUNNING_DISK_CHECK_MS, WALK_COST_FACTOR } from './disk-usage';

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

  it('recounts a running game within seconds, less often only when the walk itself is costly', async () => {
    let now = 0;
    const usage = new DiskUsage(directory, { now: () => now });
    await writeFile(path.join(directory, 'file'), Buffer.alloc(100));
    expect(usage.dueWhileRunning).toBe(true);
    await usage.count();
    // A game wrote 50 MB since: seen at the next check, 5 s later, not 150 s (Wings' interval).
    await writeFile(path.join(directory, 'more'), Buffer.alloc(50));
    now = RUNNING_DISK_CHECK_MS - 1;
    expect(await usage.refreshWhileRunning()).toBe(100);
    now = RUNNING_DISK_CHECK_MS;
    expect(await usage.refreshWhileRunning()).toBe(150);
    // A walk that took 1 s (a huge tree): the next one 20 s later.
    const walk = [0, 1000];
    const slow = new DiskUsage(directory, { now: () => walk.shift() ?? now });
    await slow.count();
    const counted = 1000;
    now = counted + 1000 * WALK_COST_FACTOR - 1000;
    expect(slow.dueWhileRunning).toBe(false);
    now = counted + 1000 * WALK_COST_FACTOR;
    expect(slow.dueWhileRunning).toBe(true);
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

  it('keeps what writes added while a walk was under way: the walk may have measured the file before it grew', async () => {
    await writeFile(path.join(directory, 'a.bin'), Buffer.alloc(100));
    const usage = new DiskUsage(directory);
    const counting = usage.count();
    // An upload reports its bytes as it writes them, while the walk is still out.
    usage.add(5000);
    usage.add(-40);
    expect(await counting).toBe(5100);
    expect(usage.bytes).toBe(5100);
    // With nothing written meanwhile, the next walk is exact again.
    expect(await usage.count()).toBe(100);
  });
});
