// `npm run bench:servers -w @aerie/bench`: the server list of GET /api/client on 10,000 servers across 1,000
// users, each figure as a ratio to a bare Fastify JSON route measured in the same run, with p99 latency.
import {
  benchAdmin,
  benchSeconds,
  buildWeb,
  formatRow,
  preparePanel,
  runNode,
  startServers,
} from './src/bench-setup';
import { type LoadResult, load } from './src/load';
import { signIn } from './src/sign-in';

const seconds = benchSeconds;
const users = Number(process.env.BENCH_USERS ?? 1000);
const servers = Number(process.env.BENCH_SERVERS ?? 10_000);

// The panel serves the web build's shell; build it only when it is missing.
buildWeb({ onlyIfMissing: true });
const prepared = await preparePanel();
const admin = benchAdmin;
const seedArgs = ['--users', String(users), '--servers', String(servers), '--owner', admin.username];
process.stdout.write(
  runNode(['--import', 'tsx', 'apps/panel/src/dev/seed-servers.cli.ts', ...seedArgs], prepared.env),
);

const { baseline, server: panel } = await startServers(prepared);

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

  const row = (name: string, r: LoadResult) => formatRow(name, r, baselineRps, 50);
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
  prepared.cleanUp();
}
