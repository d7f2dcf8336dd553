import { type ChildProcess, spawn } from 'node:child_process';
import { waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessGroupUsage } from './process-group-usage';

const groups: ChildProcess[] = [];

afterEach(() => {
  for (const leader of groups.splice(0)) {
    try {
      process.kill(-(leader.pid ?? 0), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** A node one-liner that holds `megabytes` of touched memory and idles. */
const holder = (megabytes: number) =>
  `"${process.execPath}" -e 'globalThis.held = Buffer.alloc(${megabytes}e6, 1); console.log("held"); setInterval(() => {}, 1000)'`;

/** A shell leading its own process group, as the process runtime starts servers. */
async function group(script: string): Promise<{ leader: ChildProcess; lines: string[] }> {
  const leader = spawn('/bin/sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  groups.push(leader);
  const lines: string[] = [];
  leader.stdout?.on('data', (chunk: Buffer) => lines.push(...chunk.toString().trim().split('\n')));
  await waitForEvent(leader, 'spawn');
  return { leader, lines };
}

describe('ProcessGroupUsage', () => {
  it('sums the RSS of every member, the children of the leader included', async () => {
    const { leader, lines } = await group(`${holder(30)} & ${holder(30)} & wait`);
    // Node starts slowly when other test files share the machine's cores.
    await expect.poll(() => lines.filter((line) => line === 'held').length, { timeout: 10_000 }).toBe(2);
    const usage = new ProcessGroupUsage(leader.pid ?? 0);
    expect((await usage.sample()).rssBytes).toBeGreaterThan(60e6);
  });

  it('learns members the group starts later from a later scan, and drops those that end', async () => {
    const { leader, lines } = await group(`sleep 0.3; ${holder(30)} & wait`);
    const pid = leader.pid ?? 0;
    // A group that has run for a minute trusts one scan's members for 10 s; a young one rescans soon.
    const old = new ProcessGroupUsage(pid, { spawnedAt: Date.now() - 60_000 });
    const young = new ProcessGroupUsage(pid);
    expect((await old.sample()).rssBytes).toBeLessThan(20e6);
    expect((await young.sample()).rssBytes).toBeLessThan(20e6);
    await expect.poll(() => lines, { timeout: 10_000 }).toContain('held');
    expect((await old.sample()).rssBytes).toBeLessThan(20e6);
    // One /proc scan serves every group for 500 ms: the young one sees the child from the next one on.
    await expect.poll(async () => (await young.sample()).rssBytes, { timeout: 5000 }).toBeGreaterThan(30e6);
    process.kill(-pid, 'SIGKILL');
    await waitForEvent(leader, 'exit');
    await expect.poll(async () => (await young.sample()).rssBytes, { timeout: 5000 }).toBe(0);
  });

  it('measures CPU between samples, the first from the spawn', async () => {
    const spawnedAt = Date.now();
    const { leader, lines } = await group(`"${process.execPath}" -e 'console.log("busy"); for (;;) {}'`);
    const usage = new ProcessGroupUsage(leader.pid ?? 0, { spawnedAt });
    await expect.poll(() => lines, { timeout: 10_000 }).toContain('busy');
    // From the spawn: Node's own start, then the loop.
    expect((await usage.sample()).cpuPercent).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const { cpuPercent } = await usage.sample();
    // A busy loop: most of one core, less when other test files share the machine's cores.
    expect(cpuPercent).toBeGreaterThan(10);
    expect(cpuPercent).toBeLessThan(110);
    expect(Number(cpuPercent.toFixed(3))).toBe(cpuPercent);
  });
});
