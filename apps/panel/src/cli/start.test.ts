import { readFileSync } from 'node:fs';
import { createAerieEnvironment, freePort, isAlive } from '@aerie/panel/test/aerie-environment';
import { startAerieUp } from '@aerie/panel/test/aerie-up-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let env: Record<string, string>;
let remove: () => Promise<void>;
const groups: number[] = [];

beforeAll(async () => {
  // A port of its own (not 0): the aerie up started again must answer where the first one did.
  const port = await freePort();
  ({ env, remove } = await createAerieEnvironment('aerie-start-', {
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    DAEMON_PORT: String(await freePort()),
  }));
});
afterAll(async () => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await remove?.();
});

/** The processes `pid` started (Linux keeps the list per thread; a Node process's main thread has its pid). */
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

const answers = async (url: string) => {
  try {
    return (await fetch(`${url}/auth/login`)).status;
  } catch {
    return 0;
  }
};

describe('aerie start (npm start): the panel is started again when it dies', { timeout: 180_000 }, () => {
  it('kill -9 of aerie up: back within seconds with a new daemon; kill -9 of aerie start: aerie up stops', async () => {
    const started = startAerieUp(env, { command: 'start', detached: true });
    groups.push(started.pid as number);
    const url = await started.ready;
    const [up] = childrenOf(started.pid as number);
    expect(up).toBeGreaterThan(0);
    const [daemon] = childrenOf(up as number);
    expect(daemon).toBeGreaterThan(0);

    // A crash the panel cannot catch (the out-of-memory killer, say).
    process.kill(up as number, 'SIGKILL');
    await expect
      .poll(() => started.output(), { timeout: 10_000 })
      .toContain('[aerie up] exited (SIGKILL); restarting');
    // The old daemon noticed its aerie up gone and stopped; the new aerie up has its own.
    await expect.poll(() => isAlive(daemon as number), { timeout: 20_000 }).toBe(false);
    await expect.poll(() => answers(url), { timeout: 60_000 }).toBe(200);
    const [again] = childrenOf(started.pid as number);
    expect(again).toBeGreaterThan(0);
    expect(again).not.toBe(up);
    await expect
      .poll(() => started.output().split('Aerie daemon listening on').length - 1, { timeout: 60_000 })
      .toBe(2);

    // aerie start killed outright: its aerie up notices within a second and stops cleanly, daemon and all.
    const [secondDaemon] = childrenOf(again as number);
    process.kill(started.pid as number, 'SIGKILL');
    await expect.poll(() => isAlive(again as number), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => isAlive(secondDaemon as number), { timeout: 30_000 }).toBe(false);
    expect(await answers(url)).toBe(0);
  });

  it('Ctrl-C stops it, aerie up and the daemon, and it exits 0 without starting anything again', async () => {
    const started = startAerieUp(env, { command: 'start', detached: true });
    groups.push(started.pid as number);
    const url = await started.ready;
    const [up] = childrenOf(started.pid as number);
    expect(await started.stop()).toBe(0);
    expect(isAlive(up as number)).toBe(false);
    expect(started.output()).toContain('Aerie stopped.');
    expect(started.output()).not.toContain('restarting');
    expect(await answers(url)).toBe(0);
  });

  it('shows a start-up error once instead of retrying it in a loop', async () => {
    const broken = startAerieUp(
      { ...env, DATABASE_URL: 'nosuchdb://x' },
      { command: 'start', detached: true },
    );
    groups.push(broken.pid as number);
    await expect(broken.ready).rejects.toThrow(/exited with 1/);
    expect(broken.output()).not.toContain('restarting');
  });
});
