// `npm run bench:console -w @aerie/bench`: the daemon's console path (game process → process runtime → throttle →
// console websocket → 20 clients) against a bare `ws` broadcaster of the same game's lines, measured in the same
// run: a 100,000-line flood (delivery, drops, RSS), latency at 1,000 lines/s, and RSS with 100 idle demo servers.
import { randomUUID } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoConfiguration } from '@aerie/daemon/testing/panel-stand-in';
import { nodeStartup } from '@aerie/daemon/testing/server-fixtures';
import { startBaselineBroadcaster } from './src/console-baseline';
import { BenchClient, clientAddress } from './src/console-clients';
import { type BenchDaemon, startBenchDaemon } from './src/console-daemon';
import { type FloodResult, measureFlood } from './src/console-flood';
import { measureIdleServers } from './src/console-idle';
import { type LatencyResult, measureLatency } from './src/console-latency';
import { printFlood, printIdle, printLatency, printRestart } from './src/console-report';
import { GAME_FILE, measureRestart } from './src/console-restart';
import { consoleSummary, idleSummary } from './src/console-summary';
import { reportSummary } from './src/summary';

const floodLines = Number(process.env.BENCH_FLOOD_LINES ?? 100_000);
const clientCount = Number(process.env.BENCH_CLIENTS ?? 20);
const latencyLines = Number(process.env.BENCH_LATENCY_LINES ?? 5000);
const latencyRate = 1000;
const idleServers = Number(process.env.BENCH_IDLE_SERVERS ?? 100);
const restart = {
  servers: Number(process.env.BENCH_RESTART_SERVERS ?? 20),
  sockets: Number(process.env.BENCH_RESTART_SOCKETS ?? 500),
  rate: Number(process.env.BENCH_RESTART_RATE ?? 20),
  seconds: Number(process.env.BENCH_RESTART_SECONDS ?? 15),
};
/** Which parts run: `flood,latency,idle,restart` (flood and latency always run together). */
const parts = new Set((process.env.BENCH_CONSOLE_PARTS ?? 'flood,latency,idle,restart').split(','));
const gameScript = fileURLToPath(new URL('./src/console-game.mjs', import.meta.url));

/** Everything started so far, stopped in reverse order on the way out (Ctrl-C included). */
const cleanups: Array<() => Promise<void> | void> = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(console.error);
};
process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

async function connectAll(url: string, origin: string, token: string): Promise<BenchClient[]> {
  // One after the other: the daemon lets only a few sockets per server wait for their auth at once.
  const clients: BenchClient[] = [];
  cleanups.push(() => {
    for (const client of clients) client.close();
  });
  for (let index = 0; index < clientCount; index += 1) {
    clients.push(await BenchClient.connect(url, origin, token, clientAddress(index)));
  }
  return clients;
}

async function baselineRuns(): Promise<{ flood: FloodResult; latency: LatencyResult }> {
  const baseline = await startBaselineBroadcaster(gameScript);
  cleanups.push(baseline.stop);
  const clients = await connectAll(baseline.socketUrl, 'http://bench.invalid', 'no token needed');
  const flood = await measureFlood(baseline.pid, clients, floodLines);
  const latency = await measureLatency(clients, latencyLines, latencyRate);
  await cleanUp();
  return { flood, latency };
}

async function startFloodServer(daemon: BenchDaemon, uuid: string): Promise<void> {
  const started = await daemon.request('POST', `/api/servers/${uuid}/power`, { action: 'start' });
  if (started.status !== 202) throw new Error(`power start answered ${started.status}`);
  const deadline = Date.now() + 30_000;
  while (
    ((await daemon.request('GET', `/api/servers/${uuid}`)).body as { state: string }).state !== 'running'
  ) {
    if (Date.now() > deadline) throw new Error('the flood server did not reach running');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function daemonRuns(): Promise<{ flood: FloodResult; latency: LatencyResult }> {
  const uuid = randomUUID();
  const server = demoConfiguration(uuid, {
    invocation: nodeStartup(GAME_FILE),
    memoryMb: 0,
    skipScripts: true,
  });
  const profile = process.env.BENCH_CONSOLE_CPU_PROF;
  const daemon = await startBenchDaemon([server], {
    nodeArgs: profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
  });
  cleanups.push(daemon.stop);
  // The sandboxed game sees its volume only.
  await copyFile(gameScript, path.join(daemon.volume(uuid), GAME_FILE));
  await startFloodServer(daemon, uuid);
  const clients = await connectAll(daemon.socketUrl(uuid), daemon.panel.url, await daemon.token(uuid));
  const flood = await measureFlood(daemon.pid, clients, floodLines);
  const latency = await measureLatency(clients, latencyLines, latencyRate);
  await cleanUp();
  return { flood, latency };
}

try {
  if (parts.has('flood') || parts.has('latency')) {
    console.log(
      `flood: ${floodLines} lines, ${clientCount} clients; latency: ${latencyLines} lines at ${latencyRate}/s`,
    );
    const baseline = await baselineRuns();
    const daemon = await daemonRuns();
    printFlood(daemon.flood, baseline.flood, clientCount);
    printLatency(daemon.latency, baseline.latency, latencyRate);
    reportSummary(consoleSummary(daemon, baseline, { floodLines, clientCount, latencyRate }));
    if (daemon.flood.clientsDone < clientCount || baseline.flood.clientsDone < clientCount) {
      console.error('\nsome clients never saw the end of the flood: the flood figures are incomplete');
      process.exitCode = 1;
    }
  }
  if (parts.has('idle')) {
    const idleDaemon = await startBenchDaemon();
    cleanups.push(idleDaemon.stop);
    const idle = await measureIdleServers(idleDaemon, idleServers);
    await cleanUp();
    printIdle(idle);
    reportSummary([idleSummary(idle)]);
  }
  if (parts.has('restart')) printRestart(await measureRestart({ gameScript, ...restart }));
} finally {
  await cleanUp();
}
