import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import {
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import { repoRoot } from './bench-setup';

export interface BenchDaemon {
  readonly pid: number;
  readonly url: string;
  panel: PanelStandIn;
  /** What the daemon printed last (its last 20,000 characters). */
  output(): string;
  /** A server's volume (the game sees it as its working directory, /home/container in the sandbox). */
  volume(uuid: string): string;
  /** The console socket of a server. */
  socketUrl(uuid: string): string;
  /** A websocket token with every permission, signed as the panel signs it. */
  token(uuid: string): Promise<string>;
  /** A request as the panel makes it (node token). */
  request(method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** kill -9 of the daemon alone (its games live on under their holders); resolves once it has exited. */
  crash(): Promise<void>;
  /** A new daemon on the same data directory (it re-adopts the games); resolves once it listens. */
  restart(): Promise<void>;
  /** SIGINT (the daemon ends its game processes), SIGKILL after 10 s; then the data directory goes. */
  stop(): Promise<void>;
}

/** More for the daemon process: environment (e.g. DAEMON_SFTP_PORT) and node flags (e.g. `--cpu-prof`). */
export interface BenchDaemonOptions {
  env?: Record<string, string>;
  nodeArgs?: string[];
}

/**
 * `aerie daemon` in its own process (process runtime), booted against the daemon tests' panel stand-in served from
 * this process; its RSS is then the daemon's alone, not the clients'. `servers` are on the panel before boot.
 */
export async function startBenchDaemon(
  servers: DaemonServerConfiguration[] = [],
  options: BenchDaemonOptions = {},
): Promise<BenchDaemon> {
  const panel = await startPanelStandIn();
  for (const configuration of servers) panel.servers.set(configuration.settings.uuid, configuration);
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-bench-daemon-'));
  let daemon = await spawnDaemon(panel, dataDirectory, options).catch(async (error: unknown) => {
    await panel.close();
    await rm(dataDirectory, { recursive: true, force: true });
    throw error;
  });
  // Tokens issued before the daemon's boot second are refused (JwtDenylist): let that second pass.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  return {
    get pid() {
      return daemon.child.pid ?? 0;
    },
    get url() {
      return daemon.url;
    },
    panel,
    output: () => daemon.output(),
    volume: (uuid) => path.join(dataDirectory, 'volumes', uuid),
    socketUrl: (uuid) => `${daemon.url.replace('http', 'ws')}/api/servers/${uuid}/ws`,
    token: (uuid) =>
      signTestToken({ server_uuid: uuid, permissions: ['*'], jti: `bench-${uuid}` }, { key: PANEL_TOKEN }),
    async request(method, route, body) {
      const response = await fetch(`${daemon.url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${PANEL_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    async crash() {
      const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
      daemon.child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      // No wait for the boot second here: a client refused for its older token asks for a new one, as a browser does.
      daemon = await spawnDaemon(panel, dataDirectory, options);
    },
    async stop() {
      await stopDaemon(daemon.child);
      await panel.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** Ctrl-C's stop (the games end with the daemon), SIGKILL after 10 s. */
async function stopDaemon(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** One `aerie daemon` process on `dataDirectory`; resolves with it once it listens. */
async function spawnDaemon(
  panel: PanelStandIn,
  dataDirectory: string,
  options: BenchDaemonOptions,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const args = [...(options.nodeArgs ?? []), 'bin/aerie.mjs', 'daemon'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      DAEMON_HOST: '127.0.0.1',
      DAEMON_PORT: '0',
      DAEMON_TOKEN_ID: PANEL_TOKEN_ID,
      DAEMON_TOKEN: PANEL_TOKEN,
      PANEL_URL: panel.url,
      DAEMON_DATA_DIR: dataDirectory,
      RUNTIME: 'process',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the daemon did not start:\n${log}`)), 60_000);
      child.once('exit', () => reject(new Error(`the daemon exited:\n${log}`)));
      child.stdout?.on('data', () => {
        const match = /Aerie daemon listening on (http:\/\/\S+)/.exec(log);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    return { child, url, output: () => log };
  } catch (error) {
    await stopDaemon(child);
    throw error;
  }
}
