// bench:network: what a game server's network namespace costs a player. The same game (src/network-game.mjs) runs
// once as a plain process on the host's network (the baseline) and once under the process runtime in its own
// namespace (veth + nftables DNAT), and a client on the node measures both through 127.0.0.1:<port>: new
// connections, round trips on an open one, and one connection's throughput. Rounds alternate so both see the same
// machine; each figure is the median of its rounds. Needs a root daemon with nftables (what the namespace needs).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessRuntime } from '@aerie/daemon/runtime/process/process-runtime';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import { TEST_LIMITS } from '@aerie/daemon/testing/server-fixtures';
import { freePort } from './src/bench-setup';
import { printTable } from './src/measure';
import { measureGamePort, type NetworkFigures } from './src/network-measure';

const GAME = fileURLToPath(new URL('./src/network-game.mjs', import.meta.url));
const ROUNDS = Number(process.env.BENCH_NETWORK_ROUNDS ?? 3);
const LOAD = { connections: 1000, trips: 10_000, mebibytes: 1024 };

function untilReady(lines: () => string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const began = Date.now();
    const check = setInterval(() => {
      if (lines().includes('ready')) {
        clearInterval(check);
        resolve();
      } else if (Date.now() - began > 15_000) {
        clearInterval(check);
        reject(new Error(`the game did not start: ${lines().join(' | ')}`));
      }
    }, 20);
  });
}

async function hostGame(port: number): Promise<ChildProcess> {
  const lines: string[] = [];
  const child = spawn(process.execPath, [GAME], {
    env: { SERVER_PORT: String(port), SERVER_IP: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout?.setEncoding('utf8').on('data', (text: string) => lines.push(...text.split('\n')));
  await untilReady(() => lines);
  return child;
}

async function namespacedGame(
  sandbox: ProcessSandbox,
  dataDirectory: string,
  port: number,
): Promise<ProcessRuntime> {
  const uuid = randomUUID();
  const directory = path.join(dataDirectory, 'volumes', uuid);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await copyFile(GAME, path.join(directory, 'game.mjs'));
  const runtime = new ProcessRuntime({ sandbox, runDirectory: path.join(dataDirectory, 'run') });
  const lines: string[] = [];
  runtime.on('output', (line) => lines.push(line));
  await runtime.start({
    uuid,
    directory,
    startup: 'node game.mjs',
    environment: { SERVER_PORT: String(port), SERVER_IP: '127.0.0.1' },
    image: '~process',
    limits: TEST_LIMITS,
    allocations: { default: { ip: '127.0.0.1', port }, mappings: { '127.0.0.1': [port] } },
  });
  await untilReady(() => lines);
  return runtime;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const combine = (runs: NetworkFigures[]): NetworkFigures => ({
  connectMicros: median(runs.map((run) => run.connectMicros)),
  roundTripMicros: median(runs.map((run) => run.roundTripMicros)),
  throughputMiBs: median(runs.map((run) => run.throughputMiBs)),
});

async function main(): Promise<void> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-bench-network-'));
  const sandbox = await ProcessSandbox.detect({ dataDirectory });
  if (!sandbox.isolatesNetwork) {
    console.log(`bench:network skipped: no network namespace here (${sandbox.describe()})`);
    await rm(dataDirectory, { recursive: true, force: true });
    return;
  }
  const hostPort = await freePort();
  const gamePort = await freePort();
  const host = await hostGame(hostPort);
  const game = await namespacedGame(sandbox, dataDirectory, gamePort);
  const baseline: NetworkFigures[] = [];
  const namespaced: NetworkFigures[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await measureGamePort(hostPort, LOAD));
      namespaced.push(await measureGamePort(gamePort, LOAD));
    }
  } finally {
    host.kill();
    game.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await rm(dataDirectory, { recursive: true, force: true });
  }
  const before = combine(baseline);
  const after = combine(namespaced);
  console.log(`\nbench:network, ${ROUNDS} rounds, medians; client on the node through 127.0.0.1`);
  printTable(
    ['figure', 'host network', 'own namespace', 'ratio'],
    [
      [
        `new connection + first echo (${LOAD.connections})`,
        `${before.connectMicros.toFixed(0)} µs`,
        `${after.connectMicros.toFixed(0)} µs`,
        (after.connectMicros / before.connectMicros).toFixed(2),
      ],
      [
        `round trip on an open connection (${LOAD.trips})`,
        `${before.roundTripMicros.toFixed(0)} µs`,
        `${after.roundTripMicros.toFixed(0)} µs`,
        (after.roundTripMicros / before.roundTripMicros).toFixed(2),
      ],
      [
        `throughput, one connection (${LOAD.mebibytes} MiB)`,
        `${before.throughputMiBs.toFixed(0)} MiB/s`,
        `${after.throughputMiBs.toFixed(0)} MiB/s`,
        (after.throughputMiBs / before.throughputMiBs).toFixed(2),
      ],
    ],
  );
}

await main();
