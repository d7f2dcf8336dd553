// `npm run bench`: every figure of the performance issue's table, each as a ratio to a baseline measured in the same
// run (or to its goal where nothing is worth dividing by), ending with one table of all of them:
// - the panel's HTML shell and an authenticated API read against a bare Fastify JSON route;
// - first-load JavaScript of the sign-in page, the dashboard, the console and the file manager;
// - `npm start` to the sign-in page, warm;
// - the console flood and latency against a bare `ws` broadcaster, and the daemon's RSS with 0 servers against a
//   bare node process (`bench:console`, flood of 50,000 lines);
// - the server list on 10,000 servers (`bench:servers`).
// BENCH_PARTS picks parts: http,first-load,start,console,servers (all by default).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchAdmin,
  benchSeconds,
  buildWeb,
  formatRow,
  preparePanel,
  repoRoot,
  startServers,
} from './src/bench-setup';
import { firstLoadSummary, formatFirstLoadRoutes, measureFirstLoadRoutes } from './src/first-load-routes';
import { type LoadResult, load } from './src/load';
import { sessionApiHeaders, signIn } from './src/sign-in';
import { measureStartTime } from './src/start-time';
import { printSummary, readSummary, reportSummary, type SummaryRow } from './src/summary';

const parts = new Set((process.env.BENCH_PARTS ?? 'http,first-load,start,console,servers').split(','));
const summaryDir = mkdtempSync(join(tmpdir(), 'aerie-bench-summary-'));
const summaryFile = join(summaryDir, 'rows.jsonl');
process.env.BENCH_SUMMARY_FILE = summaryFile;

const throughputRow = (
  figure: string,
  result: LoadResult,
  baselineRps: number,
  goal: number,
): SummaryRow => ({
  figure,
  value: `${Math.round(result.requestsPerSecond)} req/s`,
  against: `bare Fastify ${Math.round(baselineRps)} req/s`,
  ratio: result.requestsPerSecond / baselineRps,
  goal: { atLeast: goal },
});

async function httpAndFirstLoad(): Promise<void> {
  buildWeb({ onlyIfMissing: false });
  const prepared = await preparePanel();
  const { baseline, server: panel } = await startServers(prepared);
  try {
    if (parts.has('http')) {
      const cookie = await signIn(panel.url, benchAdmin.username, benchAdmin.password);
      const api = sessionApiHeaders(cookie);
      // Warm both servers so JIT start-up is not part of any figure.
      await load(`${baseline.url}/baseline`, {}, 2);
      await load(`${panel.url}/api/client/account`, api, 2);

      const before = await load(`${baseline.url}/baseline`, {}, benchSeconds);
      const shell = await load(`${panel.url}/auth/login`, {}, benchSeconds);
      const account = await load(`${panel.url}/api/client/account`, api, benchSeconds);
      const after = await load(`${baseline.url}/baseline`, {}, benchSeconds);
      const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;
      console.log(
        `\nautocannon: 32 connections, ${benchSeconds} s each, panel and baseline in their own processes`,
      );
      console.log(formatRow('baseline: bare Fastify JSON (before)', before, baselineRps));
      console.log(formatRow('baseline: bare Fastify JSON (after)', after, baselineRps));
      console.log(formatRow('GET /auth/login (HTML shell)', shell, baselineRps));
      console.log(formatRow('GET /api/client/account (session cookie)', account, baselineRps));
      if (shell.non2xx + account.non2xx > 0) {
        console.error('some panel responses were not 2xx: the figures above are not valid');
        process.exitCode = 1;
      }
      reportSummary([
        throughputRow('GET /auth/login, the HTML shell', shell, baselineRps, 0.6),
        throughputRow('GET /api/client/account, session cookie', account, baselineRps, 0.5),
      ]);
    }
    if (parts.has('first-load')) {
      const pages = await measureFirstLoadRoutes(panel.url, prepared.env);
      console.log('\nfirst-load JavaScript, gzip, every script until the network is idle (Chromium):');
      for (const line of formatFirstLoadRoutes(pages)) console.log(line);
      reportSummary(firstLoadSummary(pages));
    }
  } finally {
    await panel.stop();
    await baseline.stop();
    prepared.cleanUp();
  }
}

/** Another benchmark in its own process, its rows going to the same summary file. */
function runBench(script: string, env: Record<string, string>): void {
  console.log(
    `\n== ${script} (${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')})`,
  );
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: join(repoRoot, 'bench'),
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`${script} failed (exit ${result.status})`);
    process.exitCode = 1;
  }
}

try {
  if (parts.has('http') || parts.has('first-load')) await httpAndFirstLoad();
  if (parts.has('start')) {
    const start = await measureStartTime();
    console.log(`\nnpm start, warm: ${start.times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`);
    reportSummary([start.row]);
  }
  if (parts.has('console')) {
    runBench('console.ts', {
      BENCH_CONSOLE_PARTS: 'flood,latency,idle',
      BENCH_FLOOD_LINES: '50000',
      BENCH_IDLE_SERVERS: '0',
    });
  }
  if (parts.has('servers')) runBench('servers.ts', { BENCH_SERVERS: '10000' });
  console.log('\nEvery figure (ratios to a baseline of the same run, or to the goal):');
  printSummary(readSummary(summaryFile));
} finally {
  rmSync(summaryDir, { recursive: true, force: true });
}
