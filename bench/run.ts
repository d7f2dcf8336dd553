// `npm run bench`: the panel's HTML shell and an authenticated API read, each as a ratio to a bare
// Fastify JSON route measured in the same run, plus the JavaScript a first visit to /auth/login costs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './src/child-server';
import { measureFirstLoadJs } from './src/first-load-js';
import { type LoadResult, load } from './src/load';
import { signIn } from './src/sign-in';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const repoRoot = new URL('..', import.meta.url).pathname;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const aerie = (args: string[], env: Record<string, string>) => {
  const result = spawnSync(process.execPath, ['bin/aerie.mjs', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`aerie ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
};

const build = spawnSync('npx', ['--workspace', '@aerie/web', 'vite', 'build', '--logLevel', 'warn'], {
  cwd: repoRoot,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(1);

const dataDir = mkdtempSync(join(tmpdir(), 'aerie-bench-'));
const admin = { username: 'bench', email: 'bench@example.com', password: 'bench password 123' };
const panelPort = await freePort();
const panelEnv = {
  DATA_DIR: dataDir,
  PORT: String(panelPort),
  // The per-user API limit (720/min) would turn most of the run into 429s; keep the limiter in the path.
  API_CLIENT_RATELIMIT: '1000000000',
};
aerie(['migrate'], panelEnv);
aerie(
  [
    'user:create',
    '--admin',
    '--username',
    admin.username,
    '--email',
    admin.email,
    '--password',
    admin.password,
  ],
  panelEnv,
);

const baselinePort = await freePort();
const baseline = await startChildServer(
  ['--import', 'tsx', 'bench/src/baseline-server.ts'],
  { PORT: String(baselinePort) },
  `http://127.0.0.1:${baselinePort}`,
  '/baseline',
);
const panel = await startChildServer(
  ['bin/aerie.mjs', 'panel'],
  panelEnv,
  `http://127.0.0.1:${panelPort}`,
  '/auth/login',
);

try {
  const cookie = await signIn(panel.url, admin.username, admin.password);
  const api = { cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  // Warm both servers so JIT start-up is not part of any figure.
  await load(`${baseline.url}/baseline`, {}, 2);
  await load(`${panel.url}/api/client/account`, api, 2);

  const before = await load(`${baseline.url}/baseline`, {}, seconds);
  const shell = await load(`${panel.url}/auth/login`, {}, seconds);
  const account = await load(`${panel.url}/api/client/account`, api, seconds);
  const after = await load(`${baseline.url}/baseline`, {}, seconds);
  const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;
  const js = await measureFirstLoadJs(`${panel.url}/auth/login`);

  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(42)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s  ratio ${(r.requestsPerSecond / baselineRps).toFixed(3)}  p99 ${r.p99Ms} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(`\nautocannon: 32 connections, ${seconds} s each, panel and baseline in their own processes`);
  console.log(row('baseline: bare Fastify JSON (before)', before));
  console.log(row('baseline: bare Fastify JSON (after)', after));
  console.log(row('GET /auth/login (HTML shell)', shell));
  console.log(row('GET /api/client/account (session cookie)', account));
  console.log(
    `\nfirst-load JavaScript for /auth/login: ${js.files} files, ${js.rawBytes} bytes raw, ${js.gzipBytes} bytes gzip`,
  );
  if (shell.non2xx + account.non2xx > 0) {
    console.error('some panel responses were not 2xx: the figures above are not valid');
    process.exitCode = 1;
  }
} finally {
  await panel.stop();
  await baseline.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
