import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { signTestToken } from '../auth/testing/sign-token';
import { REFUSALS } from './console-websocket';
import { type ConsoleDaemon, SERVER_A, SERVER_B, startConsoleDaemon } from './testing/console-daemon';
import { RefusedUpgrade, sleep, TestSocket } from './testing/test-socket';
import { CLOSE, DEFAULT_WEBSOCKET_LIMITS } from './websocket-limits';

let daemon: ConsoleDaemon | undefined;

afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
});

async function start(options: Parameters<typeof startConsoleDaemon>[0] = {}) {
  daemon = await startConsoleDaemon(options);
  return daemon;
}

/** The HTTP status and body of a refused upgrade, or 'open'. */
async function upgrade(url: string, origin?: string | null) {
  try {
    const socket = await TestSocket.open(url, { origin });
    daemon?.track(socket);
    return 'open';
  } catch (error) {
    if (!(error instanceof RefusedUpgrade)) throw error;
    return { status: error.status, body: JSON.parse(error.body) as unknown };
  }
}

/** Resolves once `check` holds; rejects after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(20);
  }
}

const token = (uuid = SERVER_A) => signTestToken({ server_uuid: uuid, permissions: ['*'] });

describe('console websocket: who may connect', () => {
  it("refuses an Origin other than the panel's with 403 and accepts the panel and allowed origins", async () => {
    const { url } = await start({ allowedOrigins: ['https://admin.example.com'] });
    const refused = { status: 403, body: { error: REFUSALS.origin } };
    expect(await upgrade(url(), 'https://evil.example.com')).toEqual(refused);
    expect(await upgrade(url(), 'http://panel.test:8081')).toEqual(refused);
    expect(await upgrade(url(), null)).toEqual(refused);
    expect(await upgrade(url(), 'http://panel.test:8080')).toBe('open');
    expect(await upgrade(url(), 'https://admin.example.com')).toBe('open');
  });

  it('answers an unknown server with 404', async () => {
    const { url } = await start();
    expect(await upgrade(url('0b5f8f5e-1111-4222-8333-944455556666'))).toEqual({
      status: 404,
      body: { error: 'The requested resource does not exist on this instance.' },
    });
  });

  it('counts only authenticated sockets against the per-server cap: one past it is closed at its auth', async () => {
    const { url, track } = await start({ limits: { maxSocketsPerServer: 3 } });
    const open = await Promise.all([1, 2, 3].map(async () => track(await TestSocket.open(url()))));
    for (const socket of open) await socket.auth(await token());
    // The upgrade itself goes through: the place is only taken by a valid auth.
    const fourth = track(await TestSocket.open(url()));
    fourth.send('auth', [await token()]);
    expect(await fourth.closed).toEqual({ code: 1013, reason: CLOSE.serverFull.reason });
    expect(fourth.events()).not.toContain('auth success');
    const onB = track(await TestSocket.open(url(SERVER_B)));
    await onB.auth(await token(SERVER_B));
    open[0]?.close();
    await open[0]?.closed;
    await sleep(50);
    await track(await TestSocket.open(url())).auth(await token());
  });

  it('counts authenticated sockets per address over all servers', async () => {
    const { url, track } = await start({ limits: { maxSocketsPerIp: 2 } });
    await track(await TestSocket.open(url(SERVER_A))).auth(await token());
    await track(await TestSocket.open(url(SERVER_B))).auth(await token(SERVER_B));
    const third = track(await TestSocket.open(url(SERVER_A)));
    third.send('auth', [await token()]);
    expect(await third.closed).toEqual({ code: 1013, reason: CLOSE.addressFull.reason });
    // Another address has its own count.
    const elsewhere = track(await TestSocket.open(url(SERVER_A), { localAddress: '127.0.0.2' }));
    await elsewhere.auth(await token());
  });

  it('holds the cap against a burst of simultaneous authentications', async () => {
    const { url, track } = await start({
      limits: { maxSocketsPerServer: 5, maxPendingPerServer: 20, maxPendingPerIp: 20 },
    });
    const sockets = await Promise.all(
      Array.from({ length: 12 }, async () => track(await TestSocket.open(url()))),
    );
    const jwt = await token();
    for (const socket of sockets) socket.send('auth', [jwt]);
    // Each one is either let in or closed.
    await Promise.all(sockets.map((socket) => Promise.race([socket.next('auth success'), socket.closed])));
    const admitted = sockets.filter((socket) => socket.events().includes('auth success'));
    const refused = await Promise.all(
      sockets.filter((socket) => !admitted.includes(socket)).map((socket) => socket.closed),
    );
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const close of refused) expect(close.code).toBe(1013);
  });
});

describe('console websocket: sockets that never authenticate', () => {
  it('cannot keep a real user off the console, and are closed after the auth time-out', async () => {
    const { url, track, server, connections } = await start({ limits: { authTimeoutMs: 1500 } });
    // 40 sockets with the panel's Origin and no token: 5 from each of eight addresses, and 10 more from the very
    // address a real user is on.
    const attackers: TestSocket[] = [];
    for (let address = 2; address <= 9; address += 1) {
      for (let i = 0; i < 5; i += 1) {
        attackers.push(track(await TestSocket.open(url(), { localAddress: `127.0.0.${address}` })));
      }
    }
    for (let i = 0; i < 10; i += 1) attackers.push(track(await TestSocket.open(url())));
    expect(attackers).toHaveLength(50);
    const pending = connections.countsOf(SERVER_A).pending;
    expect(pending).toBeLessThanOrEqual(DEFAULT_WEBSOCKET_LIMITS.maxPendingPerServer);

    // One real user from a fresh address, one from the attackers' own address: both get in.
    const user = track(await TestSocket.open(url(), { localAddress: '127.0.0.20' }));
    await user.auth(await token());
    const neighbour = track(await TestSocket.open(url()));
    await neighbour.auth(await token());
    await server().power('start');
    await user.next('status', (args) => args[0] === 'running', 15_000);
    server().sendCommand('say hello');
    await user.next('console output', (args) => args[0] === '[Server] hello');
    await neighbour.waitFor((m) => m.event === 'console output' && m.args?.[0] === '[Server] hello');

    // Every one of them is closed: evicted by a newer one, or at the time-out.
    const closes = await Promise.all(attackers.map((socket) => socket.closed));
    const reasons = new Set(closes.map((close) => `${close.code} ${close.reason}`));
    expect(reasons).toEqual(new Set([`1008 ${CLOSE.evicted.reason}`, `1008 ${CLOSE.authTimeout.reason}`]));
    // The daemon sees each TCP close a moment after the client does.
    await until(() => connections.countsOf(SERVER_A).pending === 0);
    expect(connections.countsOf(SERVER_A)).toEqual({ authenticated: 2, pending: 0 });
    expect(user.ws.readyState).toBe(user.ws.OPEN);
    expect(neighbour.ws.readyState).toBe(neighbour.ws.OPEN);
  }, 30_000);

  it('keeps at most the per-address allowance of unauthenticated sockets from one address', async () => {
    const { url, track, connections } = await start({
      limits: { maxPendingPerIp: 3, maxPendingPerServer: 50 },
    });
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 8; i += 1) sockets.push(track(await TestSocket.open(url())));
    await sleep(100);
    expect(connections.countsOf(SERVER_A).pending).toBe(3);
    // The oldest went first; the newest three are still open.
    expect(sockets.slice(5).every((socket) => socket.ws.readyState === socket.ws.OPEN)).toBe(true);
    expect(await sockets[0]?.closed).toEqual({ code: 1008, reason: CLOSE.evicted.reason });
  });
});

describe('console websocket: what a socket may send', () => {
  it('closes the socket with 1009 on a frame over the size limit', async () => {
    const { url, track } = await start();
    const socket = track(await TestSocket.open(url()));
    await socket.auth(await token());
    socket.send('send command', ['x'.repeat(5000)]);
    expect((await socket.closed).code).toBe(1009);
  });

  it('takes a burst within the limit and closes a flood with 1008', async () => {
    const { url, track } = await start({ limits: { messagesPerSecond: 10, messageBurst: 20 } });
    const calm = track(await TestSocket.open(url()));
    await calm.auth(await token());
    for (let i = 0; i < 15; i += 1) calm.send('send stats');
    await calm.waitFor(() => calm.events().filter((event) => event === 'stats').length === 16);

    const flood = track(await TestSocket.open(url()));
    await flood.auth(await token());
    for (let i = 0; i < 100; i += 1) flood.send('send stats');
    expect(await flood.closed).toEqual({ code: 1008, reason: 'message rate limit exceeded' });
    expect(flood.events().filter((event) => event === 'stats').length).toBeLessThan(25);
    expect(calm.ws.readyState).toBe(calm.ws.OPEN);
  });
});

describe('console websocket: slow clients', () => {
  const FLOOD_SERVER = fileURLToPath(new URL('./testing/flood-server.mjs', import.meta.url));
  const LINES = 30_000;

  it('drops old lines for a client that does not read, without holding up another client', async () => {
    const { url, track, server, connections } = await start({ script: FLOOD_SERVER });
    const fast = track(await TestSocket.open(url()));
    await fast.auth(await token());
    const stalled = track(await TestSocket.open(url()));
    await stalled.auth(await token());
    await server().power('start');
    await fast.next('status', (args) => args[0] === 'running');
    await sleep(100);

    stalled.ws.pause();
    const [fastSocket, stalledSocket] = connections.socketsOf(SERVER_A);
    if (!fastSocket || !stalledSocket) throw new Error('the daemon does not list both sockets');
    let peakBuffered = 0;
    let peakQueued = 0;
    const sampler = setInterval(() => {
      peakBuffered = Math.max(peakBuffered, stalledSocket.outbox.bufferedBytes);
      peakQueued = Math.max(peakQueued, stalledSocket.outbox.queued);
    }, 5);
    const startedAt = Date.now();
    server().sendCommand(`flood ${LINES} 1000`);
    await fast.next('console output', (args) => args[0] === 'flood done', 20_000);
    clearInterval(sampler);

    const fastLines = fast.messages.filter(
      (m) => m.event === 'console output' && m.args?.[0]?.startsWith('line '),
    );
    expect(fastLines).toHaveLength(LINES);
    expect(fastLines.at(-1)?.args?.[0]).toMatch(/^line 29999 x+$/);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(fastSocket.outbox.droppedLines).toBe(0);
    // The stalled socket's memory stays bounded: the high water mark plus a frame, and a few queued lines.
    expect(peakBuffered).toBeGreaterThan(0);
    expect(peakBuffered).toBeLessThan(1024 * 1024 + 2048);
    expect(peakQueued).toBeLessThanOrEqual(8 + 2);
    expect(stalledSocket.outbox.droppedLines).toBeGreaterThan(0);

    stalled.ws.resume();
    await stalled.next('console output', (args) => args[0] === 'flood done', 20_000);
    // It missed lines in the middle but gets the newest ones once it reads again.
    const stalledLines = stalled.messages.filter((m) => m.event === 'console output');
    expect(stalledLines.length).toBeLessThan(LINES);
    expect(stalledLines.length + stalledSocket.outbox.droppedLines).toBe(LINES + 2);
  }, 60_000);
});
