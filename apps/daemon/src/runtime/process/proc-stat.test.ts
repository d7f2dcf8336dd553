import { spawn } from 'node:child_process';
import { chmod, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { serverDirectory, waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProcStat } from './proc-stat';

let directory: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ directory, cleanup } = await serverDirectory());
});
afterEach(() => cleanup());

describe('readProcStat', () => {
  it('reads the group, CPU ticks and RSS of a live process', () => {
    const stat = readProcStat(process.pid);
    expect(stat?.cpuTicks).toBeGreaterThan(0);
    // The same counters as process.memoryUsage().rss, read a moment apart.
    const rss = process.memoryUsage().rss;
    expect(stat?.rssBytes).toBeGreaterThan(rss * 0.8);
    expect(stat?.rssBytes).toBeLessThan(rss * 1.2);
  });

  it('finds the fields after a command name holding spaces and parentheses', async () => {
    const sleep = path.join(directory, 'a) b (c');
    await copyFile('/bin/sleep', sleep);
    await chmod(sleep, 0o755);
    const child = spawn(sleep, ['5'], { detached: true, stdio: 'ignore' });
    try {
      await waitForEvent(child, 'spawn');
      // Detached: it leads a process group of its own.
      await expect.poll(() => readProcStat(child.pid ?? 0)?.groupId).toBe(child.pid);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('answers undefined for a process that has ended', async () => {
    const child = spawn('true');
    const pid = child.pid ?? 0;
    await waitForEvent(child, 'exit');
    expect(readProcStat(pid)).toBeUndefined();
  });
});
