// `npm run bench:soak -w @aerie/bench`: the panel as a busy host runs it. `aerie up` with SOAK_SERVERS (100) demo
// servers running, SOAK_SOCKETS (20) console sockets on each with a `say` every SOAK_COMMAND_MS (500) per server,
// and the client API mix (server list, server, resources, file list, file write + read-back) at each rate of
// SOAK_RATES (requests/s, "300,400,500") for SOAK_SECONDS (600) each. Prints issue 42's table per rate, then the
// goals as ratios (errors, p99, console lines, refusals' p99, memory growth).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWeb } from './src/bench-setup';
import { cpuMs, descendants, rssBytes, sampleRss } from './src/console-rss';
import { profileRunningProcess, startProfiling } from './src/inspector-profile';
import { mib, printTable } from './src/measure';
import { routeCosts, runApiMix } from './src/soak-api';
import { openSoakConsolesThread } from './src/soak-consoles-thread';
import { sessionWriteHeaders, startSoakPanel } from './src/soak-panel';
import { reportSummary, type SummaryRow } from './src/summary';

const serverCount = Number(process.env.SOAK_SERVERS ?? 100);
const perServer = Number(process.env.SOAK_SOCKETS ?? 20);
const rates = (process.env.SOAK_RATES ?? '300,400,500').split(',').map(Number);
const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const commandMs = Number(process.env.SOAK_COMMAND_MS ?? 500);
/** Requests of each route asked alone, for the per-route table. */
const routeRequests = Number(process.env.SOAK_ROUTE_REQUESTS ?? 600);

/** Busy and total jiffies of the whole machine, from the first line of /proc/stat. */
function machineTicks() {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/**
 * SOAK_PROFILE_DIR: CPU profiles of the panel during each route asked alone (panel-<route>.cpuprofile), then of the
 * daemon and the panel for a third of the first rate's time each after 10 s (daemon-<rate>, panel-<rate>). Read
 * them with src/profile-top.ts.
 */
const profileDir = process.env.SOAK_PROFILE_DIR;
async function profileBoth(directory: string, rate: number) {
  const each = Math.max(5, Math.floor((seconds - 20) / 3));
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  mkdirSync(directory, { recursive: true });
  await profileRunningProcess(panel.daemonPid, each, join(directory, `daemon-${rate}.cpuprofile`));
  await profileRunningProcess(panel.panelPid, each, join(directory, `panel-${rate}.cpuprofile`));
}

buildWeb({ onlyIfMissing: true });
console.log(`starting aerie up with ${serverCount} demo servers…`);
const panel = await startSoakPanel(serverCount);
const rows: string[][] = [];
const summary: SummaryRow[] = [];
try {
  console.log(`opening ${serverCount * perServer} console sockets…`);
  const consoles = await openSoakConsolesThread({
    url: panel.url,
    sessions: panel.sessions,
    servers: panel.servers,
    perServer,
  });
  const headers = sessionWriteHeaders(panel.sessions[0] ?? '');
  // What the host spends with nothing asked: the games, the daemon watching them, the panel. Every figure below
  // includes it.
  const games = () => descendants(panel.daemonPid).reduce((sum, pid) => sum + cpuMs(pid), 0);
  const idleBefore = {
    panel: cpuMs(panel.panelPid),
    daemon: cpuMs(panel.daemonPid),
    games: games(),
    machine: machineTicks(),
  };
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const idleMachine = machineTicks();
  console.log(
    `\nidle, consoles open (CPU ms per second): panel ${((cpuMs(panel.panelPid) - idleBefore.panel) / 10).toFixed(0)}, daemon ${((cpuMs(panel.daemonPid) - idleBefore.daemon) / 10).toFixed(0)}, games ${((games() - idleBefore.games) / 10).toFixed(0)}; machine busy ${(((idleMachine.busy - idleBefore.machine.busy) / (idleMachine.total - idleBefore.machine.total)) * 100).toFixed(0)} %`,
  );
  const costs = await routeCosts({
    url: panel.url,
    headers,
    servers: panel.servers,
    requests: routeRequests,
    concurrency: 8,
    cpuMs: () => ({ panel: cpuMs(panel.panelPid), daemon: cpuMs(panel.daemonPid) }),
    around: profileDir
      ? async (name) => {
          mkdirSync(profileDir, { recursive: true });
          const profiler = await startProfiling(panel.panelPid);
          return () => profiler.stop(join(profileDir, `panel-${name.replace(/\W+/g, '-')}.cpuprofile`));
        }
      : undefined,
  });
  console.log(
    `\nCPU per request of each route of the mix, asked alone (${routeRequests} requests, 8 at a time; consoles open, idle)`,
  );
  printTable(
    ['route', 'panel', 'daemon', 'failed'],
    costs.map((cost) => [
      cost.name,
      `${cost.panelMs.toFixed(2)} ms`,
      `${cost.daemonMs.toFixed(2)} ms`,
      String(cost.failed),
    ]),
  );
  const panelRssAtStart = rssBytes(panel.panelPid);
  for (const rate of rates) {
    console.log(`${rate} req/s for ${seconds} s…`);
    await consoles.start(commandMs);
    const sampler = sampleRss(panel.panelPid, 1000);
    const machineBefore = machineTicks();
    const panelCpuBefore = cpuMs(panel.panelPid);
    const daemonCpuBefore = cpuMs(panel.daemonPid);
    const profiling = rate === rates[0] && profileDir ? profileBoth(profileDir, rate) : undefined;
    const api = await runApiMix({ url: panel.url, headers, servers: panel.servers, rate, seconds });
    await profiling;
    await consoles.stop();
    const machineAfter = machineTicks();
    const panelCpu = cpuMs(panel.panelPid) - panelCpuBefore;
    const daemonCpu = cpuMs(panel.daemonPid) - daemonCpuBefore;
    // Lines still on their way when the commands stop.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const panelPeak = sampler.stop();
    const lines = await consoles.result();
    const answered = api.ok + api.refused + api.errors;
    const busy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const delivered = lines.expected === 0 ? 0 : lines.delivered / lines.expected;
    const panelRssEnd = rssBytes(panel.panelPid);
    rows.push([
      `${rate} req/s`,
      `${(api.ok / seconds).toFixed(0)} req/s`,
      String(api.errors),
      String(api.refused),
      `${api.okP50Ms.toFixed(1)} / ${api.okP99Ms.toFixed(0)} ms`,
      api.refused === 0 ? '-' : `${api.refusedP99Ms.toFixed(1)} ms`,
      `${(delivered * 100).toFixed(2)} % of ${lines.expected}`,
      `${lines.tokenRefreshes} (${lines.failedRefreshes} failed, ${lines.lapsedTokens} lapsed)`,
      `${(busy * 100).toFixed(0)} %`,
      `${(panelCpu / answered).toFixed(2)} / ${(daemonCpu / answered).toFixed(2)} ms`,
      `${mib(panelRssAtStart)} → ${mib(panelPeak)} → ${mib(panelRssEnd)}`,
      `${api.loopDelayP99Ms.toFixed(0)} / ${lines.loopDelayP99Ms.toFixed(0)} ms`,
    ]);
    if (api.errorSamples.length > 0)
      console.log(`errors at ${rate} req/s:\n  ${api.errorSamples.join('\n  ')}`);
    summary.push(
      {
        figure: `${rate} req/s: API answered ok`,
        value: `${api.ok} of ${answered}`,
        against: 'every request',
        ratio: api.ok / answered,
        goal: { atLeast: 1 },
      },
      {
        figure: `${rate} req/s: p99 of ok answers`,
        value: `${api.okP99Ms.toFixed(0)} ms`,
        against: 'the goal, 250 ms',
        ratio: api.okP99Ms / 250,
        goal: { atMost: 1 },
      },
      {
        figure: `${rate} req/s: console lines delivered`,
        value: `${lines.delivered} of ${lines.expected}`,
        against: 'every line',
        ratio: delivered,
        goal: { atLeast: 1 },
      },
      {
        figure: `${rate} req/s: panel RSS, end against start`,
        value: mib(panelRssEnd),
        against: mib(panelRssAtStart),
        ratio: panelRssEnd / panelRssAtStart,
        goal: { atMost: 1.25 },
      },
    );
    if (api.refused > 0) {
      summary.push({
        figure: `${rate} req/s: p99 of a refusal (503)`,
        value: `${api.refusedP99Ms.toFixed(1)} ms`,
        against: 'the goal, 50 ms',
        ratio: api.refusedP99Ms / 50,
        goal: { atMost: 1 },
      });
    }
  }
  await consoles.close();
} finally {
  await panel.stop();
}

console.log(
  `\n${serverCount} servers, ${serverCount * perServer} console sockets, a command every ${commandMs} ms per server, ${seconds} s per rate`,
);
printTable(
  [
    'offered',
    'API answered ok',
    'errors',
    'refused (503)',
    'p50 / p99 ok',
    'p99 refused',
    'console lines delivered',
    'token refreshes',
    'machine busy',
    'CPU/request panel / daemon',
    'panel RSS start → peak → end',
    'generator lag p99 api / consoles',
  ],
  rows,
);
reportSummary(summary);
