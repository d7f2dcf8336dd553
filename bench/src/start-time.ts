import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot } from './bench-setup';
import { median } from './measure';
import type { SummaryRow } from './summary';

/** Signals a process group unless it is gone already. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    // Every process of the group has exited.
  }
}

/** Milliseconds from spawning `npm start` until /auth/login answers 200; then the whole tree is stopped. */
async function oneStart(env: Record<string, string>, url: string): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr.on('data', (chunk) => {
    log += chunk;
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited:\n${log}`);
      if (performance.now() - started > 120_000) throw new Error(`npm start did not answer:\n${log}`);
      const answered = await fetch(url).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // npm, the panel and the daemon: Ctrl-C as a user would give it, to the whole group.
    signalGroup(child.pid, 'SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    signalGroup(child.pid, 'SIGKILL');
  }
}

/**
 * `npm start` to the sign-in page answering, warm: one start sets the data directory up (first admin, demo server)
 * and builds what is stale, then `runs` more are timed on it. The ratio is to the 3 s goal: no baseline starts a
 * panel and a daemon.
 */
export async function measureStartTime(
  runs = 5,
): Promise<{ medianMs: number; times: number[]; row: SummaryRow }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aerie-bench-start-'));
  try {
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      DAEMON_PORT: String(await freePort()),
      DAEMON_SFTP_PORT: String(await freePort()),
    };
    const url = `http://127.0.0.1:${port}/auth/login`;
    await oneStart(env, url);
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) times.push(await oneStart(env, url));
    const medianMs = median(times);
    return {
      medianMs,
      times,
      row: {
        figure: '`npm start` to the login page answering, warm',
        value: `${(medianMs / 1000).toFixed(2)} s (median of ${runs})`,
        against: 'the goal, 3 s',
        ratio: medianMs / 3000,
        goal: { atMost: 1 },
      },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
