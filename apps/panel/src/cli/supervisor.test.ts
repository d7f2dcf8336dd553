import { describe, expect, it } from 'vitest';
import { supervise } from './supervisor';

const waitFor = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const node = (script: string) => ({ command: process.execPath, args: ['-e', script] });

describe('the daemon supervisor', () => {
  it('restarts a crashing child with growing delays, and stops restarting on stop()', async () => {
    const lines: string[] = [];
    const child = supervise({
      name: 'crashy',
      ...node('console.log("up"); process.exit(3)'),
      print: (line) => lines.push(line),
      initialBackoffMs: 20,
      maxBackoffMs: 80,
    });
    await waitFor(() => child.restarts >= 4);
    await child.stop();
    const delays = lines
      .map((line) => /exited \(code 3\); restarting in (\d+) ms/.exec(line)?.[1])
      .filter(Boolean)
      .map(Number);
    expect(delays.slice(0, 4)).toEqual([20, 40, 80, 80]);
    expect(lines).toContain('[crashy] up');
    const restarts = child.restarts;
    await new Promise((r) => setTimeout(r, 200));
    expect(child.restarts).toBe(restarts);
  });

  it('stops a running child with SIGTERM', async () => {
    const lines: string[] = [];
    const child = supervise({
      name: 'steady',
      ...node(
        // The handler first: "ready" is read by the test only once the child can answer the signal.
        'process.on("SIGTERM", () => { console.log("bye"); process.exit(0); }); console.log("ready"); setInterval(() => {}, 1000)',
      ),
      print: (line) => lines.push(line),
    });
    await waitFor(() => lines.includes('[steady] ready'));
    const pid = child.pid as number;
    await child.stop();
    expect(lines).toContain('[steady] bye');
    expect(() => process.kill(pid, 0)).toThrow();
    expect(child.restarts).toBe(0);
  });

  it.each([
    ['SIGINT', 'SIGINT'],
    ['SIGTERM', 'SIGTERM'],
    ['SIGHUP', 'SIGTERM'],
    [undefined, 'SIGTERM'],
  ] as const)('passes %s on to the child as %s', async (given, received) => {
    const lines: string[] = [];
    // The child says which signal reached it, then exits.
    const child = supervise({
      name: 'recorder',
      ...node(
        'for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(s, () => { console.log("got " + s); process.exit(0); }); console.log("ready"); setInterval(() => {}, 1000)',
      ),
      print: (line) => lines.push(line),
    });
    await waitFor(() => lines.includes('[recorder] ready'));
    await child.stop(given);
    expect(lines.filter((line) => line.startsWith('[recorder] got'))).toEqual([`[recorder] got ${received}`]);
  });

  it('kills a child that ignores SIGTERM after the grace period', async () => {
    const lines: string[] = [];
    const child = supervise({
      name: 'stubborn',
      ...node(
        'process.on("SIGTERM", () => console.log("ignoring")); console.log("ready"); setInterval(() => {}, 1000)',
      ),
      print: (line) => lines.push(line),
      stopTimeoutMs: 200,
    });
    await waitFor(() => lines.includes('[stubborn] ready'));
    const started = Date.now();
    await child.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(lines).toContain('[stubborn] ignoring');
  });
});
