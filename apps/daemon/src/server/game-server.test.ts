import { wingsEnvironment } from '@aerie/daemon/runtime/wings-environment';
import {
  DEMO_SERVER,
  nodeStartup,
  serverDirectory,
  TEST_LIMITS,
  waitForEvent,
  writeScript,
} from '@aerie/daemon/testing/server-fixtures';
import { testProcessRuntime } from '@aerie/daemon/testing/test-run-directory';
import { parseStopCommand } from '@aerie/shared/eggs/stop-command';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GameServer, type GameServerOptions, type ServerState } from './game-server';
import { POWER_LOCKED_MESSAGE } from './power-lock';

let directory: string;
let cleanup: () => Promise<void>;
const servers: GameServer[] = [];

beforeEach(async () => {
  ({ directory, cleanup } = await serverDirectory());
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill()));
  await cleanup();
});

/** A server on the process runtime that records its states, console lines and daemon lines. */
function makeServer(options: Partial<GameServerOptions> & Pick<GameServerOptions, 'invocation'>) {
  const server = new GameServer({
    uuid: '8d7a5a8e-6d0f-4c4b-9d1e-2f1f0c3a9b11',
    directory,
    environment: wingsEnvironment({
      invocation: options.invocation,
      memoryMb: 256,
      ip: '127.0.0.1',
      port: 0,
      variables: { P_SERVER_UUID: '8d7a5a8e-6d0f-4c4b-9d1e-2f1f0c3a9b11', MOTD: 'Hello from the test' },
    }),
    image: '~process',
    limits: TEST_LIMITS,
    allocations: { default: { ip: '127.0.0.1', port: 0 }, mappings: {} },
    done: 'ready',
    stop: parseStopCommand('stop'),
    createRuntime: () => testProcessRuntime(),
    ...options,
  });
  servers.push(server);
  const states: ServerState[] = [];
  const lines: string[] = [];
  const daemon: string[] = [];
  server.on('status', (state) => states.push(state));
  server.on('output', (line) => lines.push(line));
  server.on('daemon', (message) => daemon.push(message));
  return { server, states, lines, daemon };
}

const becomes = (server: GameServer, state: ServerState, timeoutMs = 5000) =>
  waitForEvent<[ServerState]>(server, 'status', (s) => s === state, timeoutMs);

describe('GameServer with the demo game server', () => {
  const demo = () =>
    makeServer({
      invocation: nodeStartup(DEMO_SERVER),
      done: 'Server started on ',
      stop: parseStopCommand('stop'),
    });

  it('goes offline → starting → running on its start line, takes console commands and stops by `stop`', async () => {
    const { server, states, lines } = demo();
    expect(server.state).toBe('offline');
    const running = becomes(server, 'running');
    await server.power('start');
    expect(server.state).toBe('starting');
    await running;
    expect(lines).toContain('Memory limit: 256 MB');
    expect(lines).toContain('Server id: 8d7a5a8e-6d0f-4c4b-9d1e-2f1f0c3a9b11');
    expect(lines).toContain('Message of the day: Hello from the test');
    expect(lines.at(-1)).toMatch(/^Server started on 127\.0\.0\.1:\d+ — type "help" for commands$/);

    const echoed = waitForEvent<[string]>(server, 'output', (line) => line === '[Server] hi');
    server.sendCommand('say hi');
    await echoed;

    const exit = waitForEvent<[string]>(server, 'output', (line) => line === 'Server stopped.');
    await server.power('stop');
    await exit;
    expect(server.state).toBe('offline');
    expect(states).toEqual(['starting', 'running', 'stopping', 'offline']);
    expect(lines.slice(-2)).toEqual(['Stopping server...', 'Server stopped.']);
  });

  it('refuses a start while running and a command while offline', async () => {
    const { server } = demo();
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    await expect(server.power('start')).rejects.toThrow('The server is already running.');
    await server.power('stop');
    expect(() => server.sendCommand('say hi')).toThrow('The server is not running.');
  });

  it('restart stops and starts again', async () => {
    const { server, states } = demo();
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    const runningAgain = becomes(server, 'running');
    await server.power('restart');
    await runningAgain;
    expect(states).toEqual(['starting', 'running', 'stopping', 'offline', 'starting', 'running']);
  });
});

describe('GameServer stop', () => {
  it('kills a server that ignores its stop command after the stop timeout', async () => {
    const script = await writeScript(
      directory,
      'stubborn.mjs',
      `process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
      process.stdin.on('data', (d) => console.log('ignoring ' + String(d).trim()));
      console.log('ready');`,
    );
    const { server, states, lines, daemon } = makeServer({
      invocation: nodeStartup(script),
      stopTimeoutMs: 300,
    });
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    const before = Date.now();
    await server.power('stop');
    expect(Date.now() - before).toBeGreaterThanOrEqual(280);
    expect(server.state).toBe('offline');
    expect(lines).toContain('ignoring stop');
    expect(daemon).toEqual(['Server did not stop within 1 second, killing it.']);
    expect(states).toEqual(['starting', 'running', 'stopping', 'offline']);
  });

  it.each([
    ['^C', 'SIGINT'],
    ['^SIGTERM', 'SIGTERM'],
  ])('stops by signal for `%s`: the process receives %s', async (stop, signal) => {
    const script = await writeScript(
      directory,
      'trap.mjs',
      `for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGABRT']) {
        process.on(s, () => { console.log('received ' + s); process.exit(0); });
      }
      console.log('ready'); setInterval(() => {}, 1000);`,
    );
    const { server, states, lines, daemon } = makeServer({
      invocation: nodeStartup(script),
      stop: parseStopCommand(stop),
      stopTimeoutMs: 5000,
    });
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    await server.power('stop');
    expect(lines).toEqual(['ready', `received ${signal}`]);
    expect(daemon).toEqual([]);
    expect(states).toEqual(['starting', 'running', 'stopping', 'offline']);
  });

  it('kill works from starting, even while another power action holds the lock, and is not a crash', async () => {
    const { server, states, daemon } = makeServer({
      invocation: 'echo booting; trap "" TERM INT; sleep 300',
      stop: parseStopCommand('^SIGTERM'),
      stopTimeoutMs: 60_000,
    });
    await server.power('start');
    expect(server.state).toBe('starting');
    // A stop that will wait a minute for a process ignoring SIGTERM holds the lock meanwhile.
    const stopping = server.power('stop');
    await becomes(server, 'stopping');
    await expect(server.power('start')).rejects.toThrow(POWER_LOCKED_MESSAGE);
    await server.power('kill');
    await stopping;
    expect(server.state).toBe('offline');
    expect(states).toEqual(['starting', 'stopping', 'offline']);
    expect(daemon).toEqual([]);
    await server.power('kill');
    expect(server.state).toBe('offline');
  });
});

describe('GameServer kill right after start', () => {
  it('a kill that arrives while the start is still under way ends the process it spawns', async () => {
    const { server, states, daemon } = makeServer({ invocation: 'echo ready; sleep 300' });
    // Killed the moment it is starting, before the process is even spawned.
    let killing: Promise<void> | undefined;
    server.once('status', () => {
      killing = server.power('kill');
    });
    await server.power('start');
    await killing;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.state).toBe('offline');
    expect(states).toEqual(['starting', 'stopping', 'offline']);
    expect(daemon).toEqual([]);
  });

  it('a kill waiting for a start that fails returns', async () => {
    const { server, states } = makeServer({ invocation: 'true', directory: `${directory}/missing` });
    let killing: Promise<void> | undefined;
    server.once('status', () => {
      killing = server.power('kill');
    });
    await expect(server.power('start')).rejects.toThrow('does not exist');
    await killing;
    expect(states).toEqual(['starting', 'stopping', 'offline']);
  });
});

describe('GameServer power lock', () => {
  it('serialises two concurrent power actions; one that may not wait is refused', async () => {
    const { server, states } = makeServer({
      invocation: 'echo ready; read line; echo "got $line"',
      stop: parseStopCommand('quit'),
    });
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    const order: string[] = [];
    const restart = server.power('restart', 5000).then(() => order.push('restart done'));
    const stop = server.power('stop', 5000).then(() => order.push('stop done'));
    await expect(server.power('stop', 0)).rejects.toThrow(POWER_LOCKED_MESSAGE);
    await Promise.all([restart, stop]);
    expect(order).toEqual(['restart done', 'stop done']);
    expect(states).toEqual(['starting', 'running', 'stopping', 'offline', 'starting', 'stopping', 'offline']);
    expect(server.state).toBe('offline');
  });

  it('a waiting action gives up with the lock message when its wait runs out', async () => {
    const { server } = makeServer({
      invocation: 'echo ready; trap "" TERM; sleep 300',
      stop: parseStopCommand('^TERM'),
    });
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    const stopping = server.power('stop');
    await expect(server.power('start', 200)).rejects.toThrow(POWER_LOCKED_MESSAGE);
    await server.power('kill');
    await stopping;
  });
});

describe('GameServer crash detection', () => {
  it('restarts after a crash, but not after a second crash within 60 seconds', async () => {
    let now = 1_000_000;
    const { server, states, daemon } = makeServer({
      invocation: 'echo ready; sleep 0.2; exit 7',
      now: () => now,
    });
    await server.power('start');
    await becomes(server, 'offline');
    // The first crash: the daemon says so and starts the server again.
    expect(daemon).toEqual([
      '---------- Detected server process in a crashed state! ----------',
      'Exit code: 7',
      'Out of memory: false',
    ]);
    await becomes(server, 'running');
    now += 59_000;
    await becomes(server, 'offline');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.state).toBe('offline');
    expect(daemon.slice(3)).toEqual([
      '---------- Detected server process in a crashed state! ----------',
      'Exit code: 7',
      'Out of memory: false',
      'Aborting automatic restart, last crash occurred less than 60 seconds ago.',
    ]);
    expect(states).toEqual(['starting', 'running', 'offline', 'starting', 'running', 'offline']);
  });

  it('restarts again once the last crash is more than 60 seconds old', async () => {
    let now = 0;
    const { server, daemon } = makeServer({ invocation: 'echo ready; sleep 0.2; exit 1', now: () => now });
    await server.power('start');
    await becomes(server, 'offline');
    now += 61_000;
    await becomes(server, 'offline');
    // Restarted a second time: it is starting or running again, not left offline.
    await becomes(server, 'running');
    expect(daemon.filter((line) => line.startsWith('Aborting'))).toEqual([]);
  });

  it('a stop asked for is not a crash', async () => {
    const { server, daemon, states } = makeServer({
      invocation: 'echo ready; read line; exit 0',
      stop: parseStopCommand('stop'),
    });
    const running = becomes(server, 'running');
    await server.power('start');
    await running;
    await server.power('stop');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(daemon).toEqual([]);
    expect(states).toEqual(['starting', 'running', 'stopping', 'offline']);
  });

  it('a start that cannot spawn goes back offline without a crash', async () => {
    const { server, states, daemon } = makeServer({ invocation: 'true', directory: `${directory}/missing` });
    await expect(server.power('start')).rejects.toThrow('does not exist');
    expect(states).toEqual(['starting', 'stopping', 'offline']);
    expect(daemon).toEqual([]);
  });
});
