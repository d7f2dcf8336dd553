// `npm run bench`: the panel's HTML shell and an authenticated API read, each as a ratio to a bare
// Fastify JSON route measured in the same run, plus the JavaScript a first visit to /auth/login costs.
import { benchAdmin, benchSeconds, buildWeb, formatRow, preparePanel, startServers } from './src/bench-setup';
import { measureFirstLoadJs } from './src/first-load-js';
import { load } from './src/load';
import { signIn } from './src/sign-in';

buildWeb({ onlyIfMissing: false });
const prepared = await preparePanel();
const { baseline, server: panel } = await startServers(prepared);

try {
  const cookie = await signIn(panel.url, benchAdmin.username, benchAdmin.password);
  const api = { cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  // Warm both servers so JIT start-up is not part of any figure.
  await load(`${baseline.url}/baseline`, {}, 2);
  await load(`${panel.url}/api/client/account`, api, 2);

  const before = await load(`${baseline.url}/baseline`, {}, benchSeconds);
  const shell = await load(`${panel.url}/auth/login`, {}, benchSeconds);
  const account = await load(`${panel.url}/api/client/account`, api, benchSeconds);
  const after = await load(`${baseline.url}/baseline`, {}, benchSeconds);
  const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;
  const js = await measureFirstLoadJs(`${panel.url}/auth/login`);

  console.log(
    `\nautocannon: 32 connections, ${benchSeconds} s each, panel and baseline in their own processes`,
  );
  console.log(formatRow('baseline: bare Fastify JSON (before)', before, baselineRps));
  console.log(formatRow('baseline: bare Fastify JSON (after)', after, baselineRps));
  console.log(formatRow('GET /auth/login (HTML shell)', shell, baselineRps));
  console.log(formatRow('GET /api/client/account (session cookie)', account, baselineRps));
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
  prepared.cleanUp();
}
