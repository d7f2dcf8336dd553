import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { signTestToken } from '../auth/testing/sign-token';
import { REFUSALS } from './console-websocket';
import { type ConsoleDaemon, SERVER_A, SERVER_B, startConsoleDaemon } from './testing/console-daemon';
import { RefusedUpgrade, sleep, TestSocket } from './testing/test-socket';

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

  it('refuses sockets past the per-server cap with 429 until one closes', async () => {
    const { url } = await start({ limits: { maxSocketsPerServer: 3 } });
    const open = await Promise.all([1, 2, 3].map(() => TestSocket.open(url())));
    for (const socket of open) daemon?.track(socket);
    expect(await upgrade(url())).toEqual({ status: 429, body: { error: REFUSALS.server } });
    expect(await upgrade(url(SERVER_B))).toBe('open');
    open[0]?.close();
    await open[0]?.closed;
    await sleep(50);
    expect(await upgrade(url())).toBe('open');
  });

  it('refuses sockets past the per-address cap with 429, over all servers', async () => {
    const { url } = await start({ limits: { maxSocketsPerIp: 2 } });
    expect(await upgrade(url(SERVER_A))).toBe('open');
    expect(await upgrade(url(SERVER_B))).toBe('open');
    expect(await upgrade(url(SERVER_A))).toEqual({ status: 429, body: { error: REFUSALS.ip } });
  });

  it('holds the cap against a burst of simultaneous connections', async () => {
    const { url } = await start({ limits: { maxSocketsPerServer: 5 } });
    const results = await Promise.all(Array.from({ length: 12 }, () => upgrade(url())));
    expect(results.filter((result) => result === 'open')).toHaveLength(5);
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
