import { fileURLToPath } from 'node:url';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { afterEach, describe, expect, it } from 'vitest';
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
async function upgrade(url: string, origin?: string | null, localAddress?: string) {
  try {
    const socket = await TestSocket.open(url, { origin, localAddress });
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
      limits: { maxSocketsPerServer: 5, maxPendingPerIp: 20 },
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
    // 45 sockets with the panel's Origin and no token: 5 from each of eight addresses, and 5 from the very
    // address a neighbour of theirs is on. Each address's sixth is refused before the upgrade.
    const attackers: TestSocket[] = [];
    for (let address = 1; address <= 9; address += 1) {
      for (let i = 0; i < DEFAULT_WEBSOCKET_LIMITS.maxPendingPerIp; i += 1) {
        attackers.push(track(await TestSocket.open(url(), { localAddress: `127.0.0.${address}` })));
      }
    }
    expect(await upgrade(url(), undefined, '127.0.0.2')).toEqual({
      status: 429,
      body: { error: REFUSALS.pending },
    });
    expect(connections.countsOf(SERVER_A).pending).toBe(45);

    // A real user from another address gets in at once, and none of the sockets without a token is closed for it.
    const user = track(await TestSocket.open(url(), { localAddress: '127.0.0.20' }));
    await user.auth(await token());
    expect(attackers.every((socket) => socket.ws.readyState === socket.ws.OPEN)).toBe(true);
    await server().power('start');
    await user.next('status', (args) => args[0] === 'running', 15_000);

    // Every one of them is closed at the time-out; then their neighbour gets in too.
    const closes = await Promise.all(attackers.map((socket) => socket.closed));
    const reasons = new Set(closes.map((close) => `${close.code} ${close.reason}`));
    expect(reasons).toEqual(new Set([`1008 ${CLOSE.authTimeout.reason}`]));
    await until(() => connections.countsOf(SERVER_A).pending === 0);
    const neighbour = track(await TestSocket.open(url(), { localAddress: '127.0.0.2' }));
    await neighbour.auth(await token());
    server().sendCommand('say hello');
    await user.next('console output', (args) => args[0] === '[Server] hello');
    await neighbour.waitFor((m) => m.event === 'console output' && m.args?.[0] === '[Server] hello');
    expect(connections.countsOf(SERVER_A)).toEqual({ authenticated: 2, pending: 0 });
  }, 30_000);

  it('never closes a socket that is about to authenticate: a churning flood from 3 addresses, 10 users in', async () => {
    const { url, track, connections } = await start();
    // Three addresses open token-less sockets as fast as they can, keeping their allowance full and asking for
    // more (each refusal or close is followed by a new attempt).
    let flooding = true;
    let opened = 0;
    const flood = async (address: string) => {
      while (flooding) {
        try {
          const socket = track(await TestSocket.open(url(), { localAddress: address }));
          opened += 1;
          // Held a little, then dropped for a fresh one.
          setTimeout(() => socket.ws.terminate(), 200);
        } catch {
          // Refused (429): ask again.
        }
      }
    };
    const floods = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].flatMap((address) => [
      flood(address),
      flood(address),
      flood(address),
    ]);
    await until(() => opened >= 30);

    // A real user connects ten times, each time sending `auth` 50 ms after the upgrade, as a page does.
    const jwt = await token();
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const user = track(await TestSocket.open(url(), { localAddress: '127.0.0.20' }));
      await sleep(50);
      user.send('auth', [jwt]);
      const reply = await Promise.race([
        user.waitFor((m) => m.event === 'auth success').then(() => 'auth success'),
        user.closed.then((close) => `closed ${close.code} ${close.reason}`),
      ]);
      outcomes.push(reply);
      user.ws.terminate();
      await user.closed;
    }
    flooding = false;
    await Promise.all(floods);
    expect(outcomes).toEqual(Array<string>(10).fill('auth success'));
    // The flood was real: far more sockets were opened than the users'.
    expect(opened).toBeGreaterThan(30);
    await until(() => connections.countsOf(SERVER_A).authenticated === 0);
  }, 30_000);

  it('keeps at most the per-address allowance of unauthenticated sockets from one address', async () => {
    const { url, track, connections } = await start({ limits: { maxPendingPerIp: 3 } });
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 3; i += 1) sockets.push(track(await TestSocket.open(url())));
    for (let i = 0; i < 5; i += 1) {
      expect(await upgrade(url())).toEqual({ status: 429, body: { error: REFUSALS.pending } });
    }
    expect(connections.countsOf(SERVER_A).pending).toBe(3);
    expect(sockets.every((socket) => socket.ws.readyState === socket.ws.OPEN)).toBe(true);
    // One that authenticates leaves the allowance: its address may open another.
    await sockets[0]?.auth(await token());
    await track(await TestSocket.open(url())).auth(await token());
  });
});

describe('console websocket: one user cannot hold every place of a server', () => {
  const subuserToken = (user: string) =>
    signTestToken({
      server_uuid: SERVER_A,
      permissions: ['websocket.connect', 'control.console'],
      user_uuid: user,
    });
  const ownerToken = () =>
    signTestToken({
      server_uuid: SERVER_A,
      permissions: ['*'],
      user_uuid: '0f0e0d0c-0b0a-4908-8706-050403020100',
    });

  /** Opens and authenticates sockets one after another until one is refused; the admitted ones and the close. */
  async function fill(url: string, jwt: string, track: ConsoleDaemon['track'], upTo: number) {
    const admitted: TestSocket[] = [];
    for (let i = 0; i < upTo; i += 1) {
      const socket = track(await TestSocket.open(url));
      socket.send('auth', [jwt]);
      const reply = await Promise.race([
        socket.waitFor((m) => m.event === 'auth success').then(() => undefined),
        socket.closed,
      ]);
      if (reply) return { admitted, refusal: reply };
      admitted.push(socket);
    }
    return { admitted, refusal: undefined };
  }

  it('stops a subuser at the per-user cap, subusers together short of the server cap, and lets the owner in', async () => {
    const { url, track, connections } = await start();
    const { maxSocketsPerServer, maxSocketsPerUser } = DEFAULT_WEBSOCKET_LIMITS;
    // One subuser tries to take all 30 places.
    const greedy = await fill(url(), await subuserToken('11111111-1111-4111-8111-111111111111'), track, 30);
    expect(greedy.admitted).toHaveLength(maxSocketsPerUser);
    expect(greedy.refusal).toEqual({ code: 1013, reason: CLOSE.userFull.reason });

    // Other subusers share what is left but the owner's share (30 − 10 = 20 places for all subusers).
    const second = await fill(url(), await subuserToken('22222222-2222-4222-8222-222222222222'), track, 30);
    expect(second.admitted).toHaveLength(maxSocketsPerServer - 2 * maxSocketsPerUser);
    const third = await fill(url(), await subuserToken('33333333-3333-4333-8333-333333333333'), track, 30);
    expect(third.admitted).toHaveLength(0);
    expect(third.refusal).toEqual({ code: 1013, reason: CLOSE.serverFull.reason });

    // The owner still gets in, up to their own cap.
    const owner = await fill(url(), await ownerToken(), track, 30);
    expect(owner.admitted).toHaveLength(maxSocketsPerUser);
    expect(owner.refusal).toEqual({ code: 1013, reason: CLOSE.userFull.reason });
    await until(() => connections.countsOf(SERVER_A).pending === 0);
    expect(connections.countsOf(SERVER_A).authenticated).toBe(maxSocketsPerServer);
  }, 30_000);
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
