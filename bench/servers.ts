// `npm run bench:servers -w @aerie/bench`: the server list of GET /api/client on 10,000 servers across 1,000
// users, each figure as a ratio to a bare Fastify JSON route measured in the same run, with p99 latency.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './src/child-server';
import { type LoadResult, load } from './src/load';
import { signIn } from './src/sign-in';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const users = Number(process.env.BENCH_USERS ?? 1000);
const servers = Number(process.env.BENCH_SERVERS ?? 10_000);
const repoRoot = new URL('..', import.meta.url).pathname;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const run = (args: string[], env: Record<string, string>) => {
  const result = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
};

// The panel serves the web build's shell; build it only when it is missing.
if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
  const build = spawnSync('npx', ['--workspace', '@aerie/web', 'vite', 'build', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'aerie-bench-servers-'));
const admin = { username: 'bench', email: 'bench@example.com', password: 'bench password 123' };
const panelPort = await freePort();
const panelEnv = {
  DATA_DIR: dataDir,
  PORT: String(panelPort),
  // The per-user API limit (720/min) would turn most of the run into 429s; keep the limiter in the path.
  API_CLIENT_RATELIMIT: '1000000000',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
};
const aerie = ['bin/aerie.mjs'];
run([...aerie, 'migrate'], panelEnv);
run(
  [
    ...aerie,
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
const seedArgs = ['--users', String(users), '--servers', String(servers), '--owner', admin.username];
process.stdout.write(
  run(['--import', 'tsx', 'apps/panel/src/dev/seed-servers.cli.ts', ...seedArgs], panelEnv),
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
  const routes: [string, string][] = [
    ['GET /api/client?type=admin-all (page 1 of 50)', '/api/client?type=admin-all'],
    ['GET /api/client?filter[*]=valheim (own servers)', '/api/client?filter%5B*%5D=valheim'],
    ['GET /api/client?type=admin-all&filter[*]=valheim', '/api/client?type=admin-all&filter%5B*%5D=valheim'],
  ];
  // Check the answers before timing them: a figure for an error page would be meaningless.
  for (const [, path] of routes) {
    const response = await fetch(panel.url + path, { headers: api });
    const body = (await response.json()) as { data?: unknown[]; meta?: { pagination?: { total?: number } } };
    console.log(`${path}: ${response.status}, ${body.data?.length} items of ${body.meta?.pagination?.total}`);
  }
  await load(`${baseline.url}/baseline`, {}, 2);
  for (const [, path] of routes) await load(panel.url + path, api, 2);

  const before = await load(`${baseline.url}/baseline`, {}, seconds);
  const results: [string, LoadResult][] = [];
  for (const [name, path] of routes) results.push([name, await load(panel.url + path, api, seconds)]);
  const after = await load(`${baseline.url}/baseline`, {}, seconds);
  const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;

  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(50)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s  ratio ${(r.requestsPerSecond / baselineRps).toFixed(3)}  p99 ${r.p99Ms} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(
    `\n${servers} servers, ${users} users (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'SQLite'}); autocannon: 32 connections, ${seconds} s each`,
  );
  console.log(row('baseline: bare Fastify JSON (before)', before));
  console.log(row('baseline: bare Fastify JSON (after)', after));
  for (const [name, result] of results) console.log(row(name, result));
  if (results.some(([, r]) => r.non2xx > 0)) {
    console.error('some panel responses were not 2xx: the figures above are not valid');
    process.exitCode = 1;
  }
} finally {
  await panel.stop();
  await baseline.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
