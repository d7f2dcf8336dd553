import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signTestToken } from './auth/testing/sign-token';
import {
  COUNTING_GAME,
  type DaemonProcess,
  processesRunning,
  startDaemonProcess,
  testDaemonEnv,
} from './testing/daemon-process';
import {
  demoConfiguration,
  PANEL_TOKEN,
  type PanelStandIn,
  startPanelStandIn,
} from './testing/panel-stand-in';
import { isAlive, nodeStartup } from './testing/server-fixtures';
import { sleep, TestSocket } from './websocket/testing/test-socket';

const UUID = '7e57ab1e-0000-4a11-8000-00000000d1e5';
const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };

let panel: PanelStandIn;
let dataDirectory: string;
let game: string;
const daemons: DaemonProcess[] = [];

beforeEach(async () => {
  panel = await startPanelStandIn();
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-restart-'));
  // A name of its own: test files run in parallel, and the game is found by its command line.
  game = `game-${process.pid}-${Date.now()}.cjs`;
  panel.servers.set(UUID, demoConfiguration(UUID, { invocation: nodeStartup(game), done: ['ready'] }));
});
afterEach(async () => {
  for (const daemon of daemons.splice(0)) daemon.process.kill('SIGKILL');
  for (const pid of await processesRunning(game)) process.kill(pid, 'SIGKILL');
  await panel.close();
  // Removing the run directory also tells any holder left behind to end its game.
  await rm(dataDirectory, { recursive: true, force: true });
});

function daemon(extra: Record<string, string> = {}): DaemonProcess {
  const started = startDaemonProcess(testDaemonEnv(panel.url, dataDirectory, extra));
  daemons.push(started);
  return started;
}

const state = async (url: string) =>
  ((await (await fetch(`${url}/api/servers/${UUID}`, { headers })).json()) as { state: string }).state;

async function power(url: string, action: string): Promise<void> {
  const response = await fetch(`${url}/api/servers/${UUID}/power`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ action }),
  });
  expect(response.status).toBe(202);
}

/** A first daemon with the game running; returns its URL and the game's host pid. */
async function runningGame(
  first: DaemonProcess,
  source = COUNTING_GAME,
): Promise<{ url: string; pid: number }> {
  const url = await first.listening();
  await writeFile(path.join(dataDirectory, 'volumes', UUID, game), source);
  await power(url, 'start');
  await expect.poll(() => state(url), { timeout: 15_000 }).toBe('running');
  const [pid] = await processesRunning(game);
  expect(pid).toBeGreaterThan(0);
  return { url, pid: pid as number };
}

/** A console socket on the daemon at `url`, signed in with a token issued after it booted. */
async function consoleOf(url: string): Promise<TestSocket> {
  // The daemon refuses tokens issued before the second it booted in.
  await sleep(1100);
  const socket = await TestSocket.open(`${url.replace('http', 'ws')}/api/servers/${UUID}/ws`, {
    origin: panel.url,
  });
  await socket.auth(await signTestToken({ server_uuid: UUID }, { key: PANEL_TOKEN }));
  return socket;
}

const ticksIn = (lines: string[]) =>
  lines.filter((line) => line.startsWith('tick ')).map((line) => Number(line.slice(5)));

describe('a daemon restart (process runtime)', { timeout: 90_000 }, () => {
  it('kill -9 of the daemon: the game keeps running, the next daemon re-adopts it with what it missed, Stop stops it', async () => {
    const first = daemon();
    const { pid } = await runningGame(first);
    first.process.kill('SIGKILL');
    await first.exited;
    await sleep(800);
    expect(isAlive(pid)).toBe(true);

    const second = daemon();
    const url = await second.listening();
    expect(await state(url)).toBe('running');
    // The same game, not a second one started beside it.
    expect(await processesRunning(game)).toEqual([pid]);
    const socket = await consoleOf(url);
    socket.send('send logs');
    await socket.next('console output', ([line]) => line?.startsWith('tick ') === true);
    // The console history runs on across the downtime: no tick is missing, none comes twice.
    await sleep(300);
    const lines = socket.messages.filter((m) => m.event === 'console output').map((m) => m.args?.[0] ?? '');
    // A live line can overtake the history's reply on a busy machine: the history is what follows its first line.
    const history = lines.slice(lines.indexOf('ready'));
    expect(history[0]).toBe('ready');
    const ticks = ticksIn(history);
    expect(ticks.length).toBeGreaterThan(10);
    expect(ticks).toEqual(ticks.map((_, index) => (ticks[0] as number) + index));
    socket.send('send command', ['hello']);
    await socket.next('console output', ([line]) => line === 'heard hello');
    const stats = (await (await fetch(`${url}/api/servers/${UUID}`, { headers })).json()) as {
      utilization: { memory_bytes: number; uptime: number };
    };
    expect(stats.utilization.memory_bytes).toBeGreaterThan(0);
    expect(stats.utilization.uptime).toBeGreaterThan(2000);

    await power(url, 'stop');
    await expect.poll(() => state(url), { timeout: 15_000 }).toBe('offline');
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    // The holder left with its game.
    await expect.poll(() => readdir(path.join(dataDirectory, 'run')), { timeout: 5000 }).toEqual([]);
    socket.close();
  });

  it('a game that ended while no daemon was there is a crash: the next daemon says so and starts it again', async () => {
    const first = daemon();
    const { pid } = await runningGame(first);
    first.process.kill('SIGKILL');
    await first.exited;
    process.kill(pid, 'SIGKILL');

    const second = daemon();
    const url = await second.listening();
    // Adoption reports the server running until the holder's log, read right after, says its game ended (a few
    // ms): wait for the new run itself, not only for the state.
    await expect
      .poll(async () => (await processesRunning(game)).filter((running) => running !== pid).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await expect.poll(() => state(url), { timeout: 15_000 }).toBe('running');
    const [again] = await processesRunning(game);
    expect(again).toBeGreaterThan(0);
    expect(again).not.toBe(pid);
    // The history holds the first run's last lines, then the new run's from its start.
    const socket = await consoleOf(url);
    socket.send('send logs');
    await socket.next('console output', ([line]) => line === 'tick 1');
    await sleep(300);
    const history = socket.messages.filter((m) => m.event === 'console output').map((m) => m.args?.[0] ?? '');
    // Both runs' first lines: the crashed run's, read back from its holder, and the new run's.
    expect(history.filter((line) => line === 'ready')).toHaveLength(2);
    socket.close();
  });

  it('a holder killed along with the daemon: what it left is ended and the server started again', async () => {
    // Unsandboxed, nothing ties the game to its holder: only the run record finds it. A quiet game: one that
    // prints dies of SIGPIPE as soon as its holder is gone.
    const first = daemon({ RUNTIME: 'process-unsafe' });
    const { pid } = await runningGame(first, "console.log('ready'); setInterval(() => {}, 1000);");
    const record = JSON.parse(await readFile(path.join(dataDirectory, 'run', `${UUID}.json`), 'utf8')) as {
      holder: { pid: number };
    };
    first.process.kill('SIGKILL');
    process.kill(record.holder.pid, 'SIGKILL');
    await first.exited;
    await sleep(200);
    expect(isAlive(pid)).toBe(true);

    const second = daemon({ RUNTIME: 'process-unsafe' });
    const url = await second.listening();
    await expect.poll(() => state(url), { timeout: 15_000 }).toBe('running');
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    const running = await processesRunning(game);
    expect(running).toHaveLength(1);
    expect(running[0]).not.toBe(pid);
  });

  it('SIGTERM stops the daemon and leaves the game for the next one; SIGINT (Ctrl-C) stops the game too', async () => {
    const first = daemon();
    const { pid } = await runningGame(first);
    first.process.kill('SIGTERM');
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(isAlive(pid)).toBe(true);

    const second = daemon();
    const url = await second.listening();
    expect(await state(url)).toBe('running');
    expect(await processesRunning(game)).toEqual([pid]);
    second.process.kill('SIGINT');
    expect(await second.exited).toBe(0);
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    // Its network went with it (a root daemon's namespace and forwarded ports), not left for a next boot.
    expect(existsSync(`/run/netns/aerie-${UUID}`)).toBe(false);
    // Ctrl-C keeps what it ran: the next daemon starts it again.
    expect(JSON.parse(await readFile(path.join(dataDirectory, 'states.json'), 'utf8'))).toEqual({
      [UUID]: 'running',
    });
  });
});
