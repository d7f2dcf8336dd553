import { spawn } from 'node:child_process';
import { repoRoot } from './bench-setup';

export interface BaselineBroadcaster {
  pid: number;
  socketUrl: string;
  stop(): Promise<void>;
}

/** The bare `ws` broadcaster (console-baseline-server.mjs) in its own process, running `gameScript`. */
export async function startBaselineBroadcaster(gameScript: string): Promise<BaselineBroadcaster> {
  const child = spawn(process.execPath, ['bench/src/console-baseline-server.mjs'], {
    cwd: repoRoot,
    env: { ...process.env, GAME_SCRIPT: gameScript },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the baseline did not start:\n${log}`)), 30_000);
      child.once('exit', () => reject(new Error(`the baseline exited:\n${log}`)));
      child.stdout.on('data', () => {
        const match = /listening (\d+)/.exec(log);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    return { pid: child.pid ?? 0, socketUrl: `ws://127.0.0.1:${port}/`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
