import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export interface RunningPanel {
  url: string;
  dataDir: string;
  admin: { username: string; email: string; password: string };
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the real panel the way a user does (`aerie up`), in a fresh data directory, and waits until
 * it answers. The web app must have been built (npm test does that first). `extraEnv` adds or overrides keys
 * (`RUNTIME=docker`, say).
 */
export async function startPanel(
  extraEnv: Record<string, string> = {},
  /** The host name the panel is reached by (its APP_URL's): passkeys need a name, not an address. */
  hostName = '127.0.0.1',
): Promise<RunningPanel> {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: build the web app first (npm run build)');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'aerie-e2e-'));
  const port = await freePort();
  const admin = { username: 'admin', email: 'admin@example.com', password: 'correct horse battery' };
  const child: ChildProcess = spawn(process.execPath, ['bin/aerie.mjs', 'up'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DAEMON_PORT: String(await freePort()),
      DAEMON_SFTP_PORT: String(await freePort()),
      ADMIN_USERNAME: admin.username,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...(hostName === '127.0.0.1' ? {} : { APP_URL: `http://${hostName}:${port}` }),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const url = `http://${hostName}:${port}`;
  const loopback = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`aerie up exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${loopback}/auth/login`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`aerie up did not answer within 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    admin,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
