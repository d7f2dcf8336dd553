// `npm run bench:servers -w @aerie/bench`: the server list of GET /api/client on 10,000 and then 100,000 servers
// across 1,000 users, each figure as a ratio to a bare Fastify JSON route measured in the same run, with p99
// latency; then how p99 grows from the first size to the next. BENCH_SERVERS picks the sizes
// (`10000,100000`), each on a fresh data directory.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  benchAdmin,
  benchSeconds,
  buildWeb,
  formatRow,
  preparePanel,
  runNode,
  startBaseline,
  startPanel,
} from './src/bench-setup';
import { type LoadResult, load } from './src/load';
import { sessionApiHeaders, signIn } from './src/sign-in';
import { reportSummary, type SummaryRow } from './src/summary';

const seconds = benchSeconds;
const users = Number(process.env.BENCH_USERS ?? 1000);
const sizes = (process.env.BENCH_SERVERS ?? '10000,100000').split(',').map(Number);

const ADMIN_ALL = '/api/client?type=admin-all';
const ADMIN_SEARCH = '/api/client?type=admin-all&filter%5B*%5D=valheim';
const routes: [string, string][] = [
  ['GET /api/client?type=admin-all (page 1)', ADMIN_ALL],
  ['GET /api/client?filter[*]=valheim (own servers)', '/api/client?filter%5B*%5D=valheim'],
  ['GET /api/client?type=admin-all&filter[*]=valheim', ADMIN_SEARCH],
];

/** Issue 19's rows for the list: throughput against the bare route, and p99 against its 30 ms goal. */
function serverListSummary(
  servers: number,
  results: Map<string, LoadResult>,
  baselineRps: number,
): SummaryRow[] {
  const size = servers.toLocaleString('en-US');
  const all = results.get(ADMIN_ALL) as LoadResult;
  const search = results.get(ADMIN_SEARCH) as LoadResult;
  const against = `bare Fastify ${Math.round(baselineRps)} req/s`;
  return [
    {
      figure: `server list, ${size} servers, type=admin-all`,
      value: `${Math.round(all.requestsPerSecond)} req/s`,
      against,
      ratio: all.requestsPerSecond / baselineRps,
      goal: { atLeast: 0.1 },
    },
    {
      figure: `server list, ${size} servers, type=admin-all, p99`,
      value: `${all.p99Ms} ms`,
      against: 'the goal, 30 ms',
      ratio: all.p99Ms / 30,
      goal: { atMost: 1 },
    },
    {
      figure: `server list, ${size} servers, admin-all searched`,
      value: `${Math.round(search.requestsPerSecond)} req/s`,
      against,
      ratio: search.requestsPerSecond / baselineRps,
      goal: { atLeast: 0.05 },
    },
  ];
}

/** One size: a fresh panel seeded with `servers` servers; the results of every route, by route path. */
async function benchSize(servers: number): Promise<Map<string, LoadResult>> {
  const prepared = await preparePanel();
  const seedArgs = ['--users', String(users), '--servers', String(servers), '--owner', benchAdmin.username];
  process.stdout.write(
    runNode(['--import', 'tsx', 'apps/panel/src/dev/seed-servers.cli.ts', ...seedArgs], prepared.env),
  );
  const panel = await startPanel(prepared);
  let baseline: Awaited<ReturnType<typeof startBaseline>> | undefined;
  try {
    const cookie = await signIn(panel.url, benchAdmin.username, benchAdmin.password);
    const api = sessionApiHeaders(cookie);
    // Check the answers before timing them: a figure for an error page would be meaningless. The first page's
    // body also becomes the second baseline: bare Fastify serialising the same JSON, no database.
    let firstPage = '';
    for (const [, path] of routes) {
      const response = await fetch(panel.url + path, { headers: api });
      const text = await response.text();
      firstPage ||= text;
      const body = JSON.parse(text) as { data?: unknown[]; meta?: { pagination?: { total?: number } } };
      console.log(
        `${path}: ${response.status}, ${body.data?.length} items of ${body.meta?.pagination?.total}`,
      );
    }
    const bodyFile = join(prepared.env.DATA_DIR ?? '', 'first-page.json');
    writeFileSync(bodyFile, firstPage);
    baseline = await startBaseline({ BASELINE_BODY_FILE: bodyFile });

    await load(`${baseline.url}/baseline`, {}, 2);
    await load(`${baseline.url}/baseline/body`, {}, 2);
    for (const [, path] of routes) await load(panel.url + path, api, 2);

    const before = await load(`${baseline.url}/baseline`, {}, seconds);
    const sameBody = await load(`${baseline.url}/baseline/body`, {}, seconds);
    const results = new Map<string, LoadResult>();
    for (const [, path] of routes) results.set(path, await load(panel.url + path, api, seconds));
    const after = await load(`${baseline.url}/baseline`, {}, seconds);
    const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;

    const row = (name: string, r: LoadResult) => formatRow(name, r, baselineRps, 50);
    console.log(
      `\n${servers} servers, ${users} users (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'SQLite'}); autocannon: 32 connections, ${seconds} s each`,
    );
    console.log(row('baseline: bare Fastify JSON (before)', before));
    console.log(row('baseline: bare Fastify JSON (after)', after));
    console.log(row(`bare Fastify, the page-1 body (${(firstPage.length / 1024).toFixed(0)} KB)`, sameBody));
    for (const [name, path] of routes) console.log(row(name, results.get(path) as LoadResult));
    reportSummary(serverListSummary(servers, results, baselineRps));
    if ([...results.values()].some((r) => r.non2xx > 0)) {
      console.error('some panel responses were not 2xx: the figures above are not valid');
      process.exitCode = 1;
    }
    return results;
  } finally {
    await panel.stop();
    await baseline?.stop();
    prepared.cleanUp();
  }
}

// The panel serves the web build's shell; build it only when it is missing.
buildWeb({ onlyIfMissing: true });
const bySize: [number, Map<string, LoadResult>][] = [];
for (const servers of sizes) bySize.push([servers, await benchSize(servers)]);

if (bySize.length > 1) {
  const [first] = bySize[0] as [number, Map<string, LoadResult>];
  console.log(`\np99 as the list grows (ratio to ${first} servers):`);
  for (const [name, path] of routes) {
    const base = bySize[0]?.[1].get(path)?.p99Ms ?? Number.NaN;
    const cells = bySize.map(([servers, results]) => {
      const p99 = results.get(path)?.p99Ms ?? Number.NaN;
      return `${servers}: ${p99} ms (${(p99 / base).toFixed(2)}x)`;
    });
    console.log(`${name.padEnd(50)} ${cells.join('  ')}`);
  }
}
