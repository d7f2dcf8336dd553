import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildServer, startChildServer } from './child-server';
import type { LoadResult } from './load';

export const repoRoot = new URL('../..', import.meta.url).pathname;
export const benchSeconds = Number(process.env.BENCH_SECONDS ?? 10);
export const benchAdmin = { username: 'bench', email: 'bench@example.com', password: 'bench password 123' };

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Runs `node <args>` from the repository root and returns its output; a failure stops the benchmark. */
export function runNode(args: string[], env: Record<string, string>): string {
  const result = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Builds the web app (the shell and first-load figures need it); `onlyIfMissing` keeps an existing build. */
export function buildWeb({ onlyIfMissing }: { onlyIfMissing: boolean }): void {
  if (onlyIfMissing && existsSync(join(repoRoot, 'apps/web/dist/index.html'))) return;
  const build = spawnSync('npx', ['--workspace', '@aerie/web', 'vite', 'build', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web build failed');
}

export interface BenchPanel {
  /** Environment of the panel process (for seeding through the CLI). */
  env: Record<string, string>;
  port: number;
  cleanUp: () => void;
}

/** A fresh data directory, migrated, with the bench's root admin; DATABASE_URL is passed on when set. */
export async function preparePanel(): Promise<BenchPanel> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aerie-bench-'));
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    // The per-user API limit (720/min) would turn most of the run into 429s; keep the limiter in the path.
    API_CLIENT_RATELIMIT: '1000000000',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  };
  runNode(['bin/aerie.mjs', 'migrate'], env);
  const { username, email, password } = benchAdmin;
  runNode(
    [
      'bin/aerie.mjs',
      'user:create',
      '--admin',
      '--username',
      username,
      '--email',
      email,
      '--password',
      password,
    ],
    env,
  );
  return { env, port, cleanUp: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** The bare Fastify baseline in its own process; `env` adds e.g. BASELINE_BODY_FILE (see baseline-server.ts). */
export async function startBaseline(env: Record<string, string> = {}): Promise<ChildServer> {
  const port = await freePort();
  return startChildServer(
    ['--import', 'tsx', 'bench/src/baseline-server.ts'],
    { ...env, PORT: String(port) },
    `http://127.0.0.1:${port}`,
    '/baseline',
  );
}

/** The panel (`aerie panel`) in its own process, on the prepared data directory and port. */
export function startPanel(panel: BenchPanel): Promise<ChildServer> {
  return startChildServer(
    ['bin/aerie.mjs', 'panel'],
    panel.env,
    `http://127.0.0.1:${panel.port}`,
    '/auth/login',
  );
}

/** The bare Fastify baseline and the panel, each in its own process. */
export async function startServers(
  panel: BenchPanel,
): Promise<{ baseline: ChildServer; server: ChildServer }> {
  const baseline = await startBaseline();
  const server = await startPanel(panel);
  return { baseline, server };
}

/** One printed line: throughput, its ratio to the baseline, p99 and anything that was not a 2xx. */
export function formatRow(name: string, result: LoadResult, baselineRps: number, width = 42): string {
  const rps = result.requestsPerSecond.toFixed(0).padStart(8);
  const ratio = (result.requestsPerSecond / baselineRps).toFixed(3);
  return `${name.padEnd(width)} ${rps} req/s  ratio ${ratio}  p99 ${result.p99Ms} ms  non-2xx ${result.non2xx}  errors ${result.errors}`;
}
