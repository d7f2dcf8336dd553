import { type ChildProcess, spawn } from 'node:child_process';

export interface ChildServer {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * Starts a server in its own process and resolves once `readyUrl` answers; `stop` sends SIGINT and kills it after
 * `stopWithinMs`.
 */
export async function startChildServer(
  args: string[],
  env: Record<string, string>,
  url: string,
  readyPath: string,
  { stopWithinMs = 10_000 }: { stopWithinMs?: number } = {},
): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (c) => {
    log += c;
  });
  child.stderr?.on('data', (c) => {
    log += c;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited:\n${log}`);
    try {
      if ((await fetch(url + readyPath)).status < 500) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, stopWithinMs))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
