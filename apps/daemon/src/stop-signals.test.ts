import { describe, expect, it } from 'vitest';
import { finishWithin, leavesServersRunning } from './stop-signals';

const never = new Promise<void>(() => {});

function finishing(steps: Record<string, Promise<unknown>>, deadlineMs = 50) {
  const lines: string[] = [];
  const code = new Promise<number>((resolve) =>
    finishWithin(steps, { deadlineMs, print: (line) => lines.push(line), exit: resolve }),
  );
  return { lines, code };
}

describe('stopping the daemon', () => {
  it('ends the game servers only on Ctrl-C', () => {
    expect(leavesServersRunning('SIGINT')).toBe(false);
    expect(leavesServersRunning('SIGTERM')).toBe(true);
    expect(leavesServersRunning('SIGHUP')).toBe(true);
    expect(leavesServersRunning('supervisor gone')).toBe(true);
  });

  it('exits 0 once every step is done', async () => {
    const { code, lines } = finishing({ api: Promise.resolve(), servers: Promise.resolve() });
    expect(await code).toBe(0);
    expect(lines).toEqual([]);
  });

  it('exits 1 at the deadline, naming the steps that did not finish', async () => {
    const { code, lines } = finishing({ 'the daemon API': Promise.resolve(), 'the game servers': never });
    expect(await code).toBe(1);
    expect(lines).toEqual(['Stopping took over 0.05 s; not finished: the game servers.']);
  });
});
