import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { POWER_LOCKED_MESSAGE } from '@aerie/daemon/server/console-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConsoleDaemon, SERVER_A, startConsoleDaemon } from './testing/console-daemon';
import { sleep, TestSocket } from './testing/test-socket';

let daemon: ConsoleDaemon;

beforeEach(async () => {
  daemon = await startConsoleDaemon();
});
afterEach(async () => {
  await daemon.close();
});

/** An authenticated socket on server A with these permissions. */
async function connect(permissions: string[]) {
  const socket = daemon.track(await TestSocket.open(daemon.url()));
  await socket.auth(await signTestToken({ server_uuid: SERVER_A, permissions }));
  await socket.waitFor((m) => m.event === 'stats');
  return socket;
}

const OWNER = ['*'];
const ADMIN = ['*', 'admin.websocket.errors', 'admin.websocket.install'];
const isLine = (text: string) => (args: string[]) => args[0]?.includes(text) ?? false;

/** Starts server A through a socket and waits until the demo game says it is up. */
async function startServer(socket: TestSocket) {
  const running = socket.next('status', (args) => args[0] === 'running', 10_000);
  socket.send('set state', ['start']);
  await running;
}

describe('console websocket: power and console', () => {
  it('ignores set state without control.start, and starts the server with it', async () => {
    const reader = await connect(['websocket.connect', 'control.console']);
    reader.send('set state', ['start']);
    await sleep(500);
    expect(daemon.server().state).toBe('offline');
    expect(reader.events()).not.toContain('daemon error');

    const starter = await connect(['websocket.connect', 'control.start']);
    const from = reader.messages.length;
    await startServer(starter);
    await reader.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', { from });
    const statuses = reader.messages
      .slice(from)
      .filter((m) => m.event === 'status')
      .map((m) => m.args?.[0]);
    expect(statuses).toEqual(['starting', 'running']);
    expect(reader.messages.slice(from)).toContainEqual({
      event: 'console output',
      args: [expect.stringContaining('Server started on 127.0.0.1:')],
    });
  });

  it('writes send command to the game with control.console and ignores it without', async () => {
    const owner = await connect(OWNER);
    await startServer(owner);
    const viewer = await connect(['websocket.connect']);
    viewer.send('send command', ['say from a viewer']);
    owner.send('send command', ['say hello']);
    expect((await owner.next('console output', isLine('[Server] hello'))).args).toEqual(['[Server] hello']);
    await viewer.next('console output', isLine('[Server] hello'));
    await sleep(200);
    expect(JSON.stringify(owner.messages)).not.toContain('from a viewer');
  });

  it('ignores send command while the server is offline', async () => {
    const owner = await connect(ADMIN);
    owner.send('send command', ['say hello']);
    await sleep(300);
    expect(owner.events()).toEqual(['auth success', 'status', 'stats']);
  });

  it('replays the recent console lines on send logs while running, and nothing while offline', async () => {
    const owner = await connect(OWNER);
    owner.send('send logs');
    await sleep(200);
    expect(owner.events()).not.toContain('console output');

    await startServer(owner);
    const late = await connect(['websocket.connect']);
    const from = late.messages.length;
    late.send('send logs');
    await late.next('console output', isLine('Server started on'));
    const replayed = late.messages.slice(from).map((m) => m.args?.[0]);
    expect(replayed[0]).toMatch(/^Aerie Demo 1\.0\.0 on Node v/);
    expect(replayed).toEqual(daemon.server().recentLogs());
  });

  it("answers send logs and send stats sent with args [null], as Pterodactyl's own front end sends them", async () => {
    const owner = await connect(OWNER);
    await startServer(owner);
    const from = owner.messages.length;
    owner.send('send logs', [null]);
    await owner.next('console output', isLine('Server started on'));
    owner.send('send stats', [null]);
    await owner.waitFor((m) => m.event === 'stats', { from });
    expect(owner.messages.slice(from).some((m) => m.event === 'console output')).toBe(true);
  });

  it('answers send stats with the figures as a JSON string', async () => {
    const owner = await connect(OWNER);
    await startServer(owner);
    owner.send('send stats');
    const stats = await owner.next('stats');
    expect(stats.args).toHaveLength(1);
    expect(JSON.parse(stats.args?.[0] ?? '')).toMatchObject({ state: 'running', network: { rx_bytes: 0 } });
  });

  it('refuses a second power action while one runs with the lock message, shown to everyone', async () => {
    const owner = await connect(OWNER);
    await startServer(owner);
    owner.send('set state', ['restart']);
    owner.send('set state', ['start']);
    const error = await owner.next('daemon error');
    expect(error.args?.[0]).toMatch(new RegExp(`^Error Event \\[[0-9a-f-]{36}\\]: ${POWER_LOCKED_MESSAGE}$`));
    await owner.next('status', (args) => args[0] === 'running', 10_000);
  });

  it('kills with control.stop', async () => {
    const owner = await connect(['websocket.connect', 'control.start', 'control.stop']);
    await startServer(owner);
    owner.send('set state', ['kill']);
    await owner.next('status', (args) => args[0] === 'offline');
    expect(daemon.server().state).toBe('offline');
  });
});

describe('console websocket: server events', () => {
  it('sends install output only to admin.websocket.install, which * does not grant', async () => {
    const owner = await connect(OWNER);
    const admin = await connect(ADMIN);
    const server = daemon.server();
    server.emit('install started');
    server.emit('install output', 'apt-get install …');
    server.emit('install completed');
    await admin.next('install completed');
    await owner.next('install completed');
    expect(admin.messages.slice(3)).toEqual([
      { event: 'install started', args: [''] },
      { event: 'install output', args: ['apt-get install …'] },
      { event: 'install completed', args: [''] },
    ]);
    expect(owner.messages.slice(3)).toEqual([
      { event: 'install started', args: [''] },
      { event: 'install completed', args: [''] },
    ]);
  });

  it("shows a server error's detail only to admin.websocket.errors", async () => {
    const owner = await connect(OWNER);
    const admin = await connect(ADMIN);
    daemon.server().emit('error', 'could not pull image ghcr.io/example:latest');
    expect((await admin.next('daemon error')).args?.[0]).toMatch(
      /^Error Event \[[0-9a-f-]{36}\]: could not pull image ghcr\.io\/example:latest$/,
    );
    expect((await owner.next('daemon error')).args?.[0]).toMatch(
      /^Error Event \[[0-9a-f-]{36}\]: an unexpected error was encountered while handling this request$/,
    );
  });

  it('forwards daemon messages', async () => {
    const owner = await connect(OWNER);
    daemon.server().emit('daemon message', '[Aerie Daemon]: Checking server disk space usage…');
    expect((await owner.next('daemon message')).args).toEqual([
      '[Aerie Daemon]: Checking server disk space usage…',
    ]);
  });

  it('says deleted and closes every socket with 1001 when the server is removed', async () => {
    const owner = await connect(OWNER);
    const unauthenticated = daemon.track(await TestSocket.open(daemon.url()));
    daemon.server().emit('deleted');
    expect(await owner.closed).toEqual({ code: 1001, reason: 'server deleted' });
    expect(owner.messages.at(-1)).toEqual({ event: 'deleted', args: ['null'] });
    expect(await unauthenticated.closed).toEqual({ code: 1001, reason: 'server deleted' });
    expect(daemon.server().listenerCount('console output')).toBe(0);
  });

  it('stops listening to the server once a socket closes', async () => {
    const owner = await connect(OWNER);
    expect(daemon.server().listenerCount('console output')).toBe(1);
    owner.close();
    await owner.closed;
    await sleep(50);
    expect(daemon.server().listenerCount('console output')).toBe(0);
    expect(daemon.server().listenerCount('deleted')).toBe(0);
  });
});
