// bench:network: what a game server's network namespace costs a player. The same game (src/network-game.mjs) runs
// as a plain process on the host's network (the baseline), under the process runtime in its own namespace as a
// root daemon makes it (veth + nftables DNAT), and as a daemon that is not root makes it (user-mode: slirp4netns,
// the daemon's code run under an unprivileged uid); a client on the node measures each through 127.0.0.1:<port>:
// new connections, round trips on an open one, and one connection's throughput. Rounds alternate so all see the
// same machine; each figure is the median of its rounds. Run as root for all three (a non-root run measures the
// user-mode namespace only, against the host network).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  prepareUnprivilegedDaemon,
  UnprivilegedDaemon,
} from '@aerie/daemon/runtime/process/network/user-mode-driver-client';
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
): Promise<{ runtime: ProcessRuntime; uuid: string }> {
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
  return { runtime, uuid };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const combine = (runs: NetworkFigures[]): NetworkFigures => ({
  connectMicros: median(runs.map((run) => run.connectMicros)),
  roundTripMicros: median(runs.map((run) => run.roundTripMicros)),
  throughputMiBs: median(runs.map((run) => run.throughputMiBs)),
});

/** One place the game runs: its port on 127.0.0.1 and how to end it. */
interface Target {
  label: string;
  port: number;
  stop: () => Promise<void>;
}

/** The game in a namespace made by this process's own sandbox (root: kernel; not root: user-mode). */
async function sandboxTarget(): Promise<Target | string> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-bench-network-'));
  const sandbox = await ProcessSandbox.detect({ dataDirectory });
  if (!sandbox.isolatesNetwork) {
    await rm(dataDirectory, { recursive: true, force: true });
    return sandbox.describe();
  }
  const port = await freePort();
  const { runtime: game, uuid } = await namespacedGame(sandbox, dataDirectory, port);
  const root = process.getuid?.() === 0;
  return {
    label: root ? 'kernel namespace (root)' : 'user-mode namespace (slirp4netns)',
    port,
    stop: async () => {
      const exited = new Promise((resolve) => game.once('exit', resolve));
      game.kill();
      await exited;
      // The runtime releases the namespace as it handles the exit; this waits for that to be done.
      await sandbox.finished(uuid);
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** As root: the game under a daemon that is not root, in its user-mode namespace. */
async function userModeTarget(): Promise<Target | string> {
  if (!existsSync('/usr/bin/slirp4netns')) return 'slirp4netns is not installed';
  const { dataDirectory, script } = await prepareUnprivilegedDaemon();
  const daemon = new UnprivilegedDaemon({ script, dataDirectory });
  const detected = await daemon.detected();
  const stop = async () => {
    await daemon.stop();
    await rm(dataDirectory, { recursive: true, force: true });
  };
  if (!detected.isolates) {
    await stop();
    return detected.describe;
  }
  const port = await freePort();
  const started = await daemon.start(
    'bench',
    await readFile(GAME, 'utf8'),
    {
      default: { ip: '127.0.0.1', port },
      mappings: { '127.0.0.1': [port] },
    },
    { SERVER_PORT: String(port), SERVER_IP: '127.0.0.1' },
  );
  if (!('uuid' in started)) {
    await stop();
    return started.message;
  }
  return { label: 'user-mode namespace (slirp4netns)', port, stop };
}

async function main(): Promise<void> {
  const root = process.getuid?.() === 0;
  const targets: Target[] = [];
  for (const make of root ? [sandboxTarget, userModeTarget] : [sandboxTarget]) {
    const target = await make();
    if (typeof target === 'string') console.log(`bench:network: one namespace left out (${target})`);
    else targets.push(target);
  }
  if (targets.length === 0) {
    console.log('bench:network skipped: no network namespace here');
    return;
  }
  const hostPort = await freePort();
  const host = await hostGame(hostPort);
  const baseline: NetworkFigures[] = [];
  const measured = targets.map(() => [] as NetworkFigures[]);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await measureGamePort(hostPort, LOAD));
      for (const [index, target] of targets.entries()) {
        measured[index]?.push(await measureGamePort(target.port, LOAD));
      }
    }
  } finally {
    host.kill();
    for (const target of targets) await target.stop();
  }
  const before = combine(baseline);
  const after = measured.map(combine);
  const row = (name: string, figure: (figures: NetworkFigures) => number, unit: string, digits = 0) => [
    name,
    `${figure(before).toFixed(digits)} ${unit}`,
    ...after.flatMap((figures) => [
      `${figure(figures).toFixed(digits)} ${unit}`,
      (figure(figures) / figure(before)).toFixed(2),
    ]),
  ];
  console.log(`\nbench:network, ${ROUNDS} rounds, medians; client on the node through 127.0.0.1`);
  printTable(
    ['figure', 'host network', ...targets.flatMap((target) => [target.label, 'ratio'])],
    [
      row(`new connection + first echo (${LOAD.connections})`, (f) => f.connectMicros, 'µs'),
      row(`round trip on an open connection (${LOAD.trips})`, (f) => f.roundTripMicros, 'µs'),
      row(`throughput, one connection (${LOAD.mebibytes} MiB)`, (f) => f.throughputMiBs, 'MiB/s'),
    ],
  );
}

await main();
