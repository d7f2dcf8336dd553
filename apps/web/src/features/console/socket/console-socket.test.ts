import { jwtErrors } from '@aerie/shared/console/socket-events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getWebsocketCredentials } from '@/features/console/api/websocket-credentials';
import { type ConnectionState, ConsoleSocket } from '@/features/console/socket/console-socket';
import { apiClient } from '@/lib/api-client';
import { FakeWebSocket } from '@/testing/fake-web-socket';
import { errorEnvelope, startTestServer, type TestServer } from '@/testing/test-server';

let panel: TestServer;
let issued = 0;

beforeAll(async () => {
  panel = await startTestServer();
  apiClient.configure({ baseUrl: panel.url });
});
afterAll(async () => {
  apiClient.configure({ baseUrl: '' });
  await panel.close();
});
beforeEach(() => {
  panel.reset();
  FakeWebSocket.reset();
  issued = 0;
  // Every call issues the next token, as the panel does (each token is distinct).
  panel.on('GET /api/client/servers/abcd1234/websocket', () => {
    issued += 1;
    return {
      body: { data: { token: `token-${issued}`, socket: 'wss://node.example.com:8080/api/servers/u/ws' } },
    };
  });
});

let sockets: ConsoleSocket[] = [];
afterEach(() => {
  for (const socket of sockets) socket.close();
  sockets = [];
});

function consoleSocket(onFailure = vi.fn()) {
  const states: ConnectionState[] = [];
  const socket = new ConsoleSocket({
    fetchCredentials: () => getWebsocketCredentials('abcd1234'),
    createSocket: (url) => new FakeWebSocket(url),
    onFailure,
  });
  socket.onStateChange((state) => states.push(state));
  sockets.push(socket);
  return { socket, states, onFailure };
}

const tokenRequests = () => panel.requests.filter((r) => r.url === '/api/client/servers/abcd1234/websocket');

/** Connects and answers auth, as the daemon would. */
async function connected() {
  const made = consoleSocket();
  await made.socket.connect();
  const fake = FakeWebSocket.latest();
  fake.open();
  fake.receive('auth success');
  return { ...made, fake };
}

/** A JWT-shaped token issued `offsetSeconds` from the browser's now and living `lifetime` seconds (unsigned). */
const jwt = (lifetime: number, offsetSeconds = 0) => {
  const iat = Math.floor(Date.now() / 1000) + offsetSeconds;
  return `h.${btoa(JSON.stringify({ iat, exp: iat + lifetime })).replace(/=+$/, '')}.s`;
};

describe('console socket: authentication', () => {
  it('connects to the address the panel gives and authenticates with the fetched token', async () => {
    const { socket } = consoleSocket();
    await socket.connect();
    const fake = FakeWebSocket.latest();
    expect(fake.url).toBe('wss://node.example.com:8080/api/servers/u/ws');
    expect(fake.sent).toEqual([]);
    fake.open();
    expect(fake.sent).toEqual([{ event: 'auth', args: ['token-1'] }]);
    expect(socket.state.connected).toBe(false);
    fake.receive('auth success');
    expect(socket.state).toEqual({ connected: true, problem: null });
  });

  it('hands daemon events to listeners with their args, and drops malformed frames', async () => {
    const { socket, fake } = await connected();
    const lines: string[] = [];
    const off = socket.on('console output', (line) => lines.push(line));
    fake.receive('console output', '\u001b[32mDone (1.2s)!');
    fake.onmessage?.(new MessageEvent('message', { data: '{"event":"console output","args":[1]}' }));
    fake.onmessage?.(new MessageEvent('message', { data: 'garbage' }));
    off();
    fake.receive('console output', 'after unsubscribing');
    expect(lines).toEqual(['\u001b[32mDone (1.2s)!']);
  });

  it('sends events only while open, with args left out when there are none', async () => {
    const { socket } = consoleSocket();
    expect(socket.send('send logs')).toBe(false);
    await socket.connect();
    const fake = FakeWebSocket.latest();
    expect(socket.send('send logs')).toBe(false);
    fake.open();
    expect(socket.send('send logs')).toBe(true);
    expect(socket.send('set state', 'start')).toBe(true);
    expect(fake.sent.slice(1)).toEqual([{ event: 'send logs' }, { event: 'set state', args: ['start'] }]);
  });

  it.each(['token expiring', 'token expired'])(
    'fetches a new token on "%s" and authenticates again',
    async (event) => {
      const { fake, socket } = await connected();
      fake.receive(event);
      await vi.waitFor(() => expect(fake.sent.at(-1)).toEqual({ event: 'auth', args: ['token-2'] }));
      expect(tokenRequests()).toHaveLength(2);
      // The connection stays up while the token is swapped.
      expect(socket.state.connected).toBe(true);
    },
  );

  it('fetches one token when expiring and expired arrive together', async () => {
    const { fake } = await connected();
    fake.receive('token expiring');
    fake.receive('token expired');
    await vi.waitFor(() => expect(fake.sent.at(-1)).toEqual({ event: 'auth', args: ['token-2'] }));
    expect(tokenRequests()).toHaveLength(2);
    expect(fake.sentEvents().filter((e) => e.startsWith('auth'))).toEqual(['auth token-1', 'auth token-2']);
  });

  it.each([jwtErrors.expired, jwtErrors.denied])(
    'refreshes the token on the jwt error "%s"',
    async (reason) => {
      const { fake, socket } = await connected();
      fake.receive('jwt error', reason);
      expect(socket.state.connected).toBe(false);
      await vi.waitFor(() => expect(fake.sent.at(-1)).toEqual({ event: 'auth', args: ['token-2'] }));
      fake.receive('auth success');
      expect(socket.state).toEqual({ connected: true, problem: null });
    },
  );

  it.each([jwtErrors.missingConnect, jwtErrors.serverMismatch, jwtErrors.noToken])(
    'gives up on the jwt error "%s" with the credentials problem',
    async (reason) => {
      const { fake, socket } = await connected();
      fake.receive('jwt error', reason);
      expect(socket.state).toEqual({ connected: false, problem: 'credentials' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(tokenRequests()).toHaveLength(1);
    },
  );

  it("asks for the next token at half the current one's life and authenticates with it on the same socket", async () => {
    const first = jwt(3);
    let calls = 0;
    panel.on('GET /api/client/servers/abcd1234/websocket', () => {
      calls += 1;
      const token = calls === 1 ? first : jwt(600);
      return { body: { data: { token, socket: 'wss://node.example.com:8080/api/servers/u/ws' } } };
    });
    const { fake } = await connected();
    expect(fake.sent).toEqual([{ event: 'auth', args: [first] }]);
    // No `token expiring` from the daemon: the socket asks on its own, about 1.5 s in.
    await vi.waitFor(() => expect(fake.sent).toHaveLength(2), { timeout: 5000 });
    expect(fake.sent[1]?.event).toBe('auth');
    expect(fake.sent[1]?.args?.[0]).not.toBe(first);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("counts half a token's life from its arrival, not by the browser's clock, however far off that is", async () => {
    // Issued an hour before the browser's now: a browser clock an hour fast. Still ten minutes of life.
    const skewed = jwt(600, -3600);
    panel.on('GET /api/client/servers/abcd1234/websocket', () => ({
      body: { data: { token: skewed, socket: 'wss://node.example.com:8080/api/servers/u/ws' } },
    }));
    const { fake } = await connected();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(tokenRequests()).toHaveLength(1);
    expect(fake.sent).toEqual([{ event: 'auth', args: [skewed] }]);
  });

  it('keeps every console line while a refresh is refused, and tries again until it has a new token', {
    timeout: 40_000,
  }, async () => {
    const { fake, socket, onFailure } = await connected();
    const lines: string[] = [];
    socket.on('console output', (line) => lines.push(line));
    // Refused (the API client's own retries of a GET included) until the test lets it through.
    let refusing = true;
    panel.on('GET /api/client/servers/abcd1234/websocket', () =>
      refusing
        ? errorEnvelope(503, 'ServiceUnavailableHttpException', 'The panel is too busy.')
        : {
            body: { data: { token: 'token-after', socket: 'wss://node.example.com:8080/api/servers/u/ws' } },
          },
    );
    fake.receive('token expiring');
    await vi.waitFor(() => expect(onFailure).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    for (let line = 1; line <= 5; line++) fake.receive('console output', `line ${line}`);
    refusing = false;
    // Tried again on the same socket, with the old token still in use until then.
    await vi.waitFor(() => expect(fake.sent.at(-1)).toEqual({ event: 'auth', args: ['token-after'] }), {
      timeout: 15_000,
    });
    fake.receive('console output', 'line 6');
    expect(lines).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('reports a failed token fetch and opens nothing', async () => {
    panel.on('GET /api/client/servers/abcd1234/websocket', () =>
      errorEnvelope(
        403,
        'HttpForbiddenException',
        "You do not have permission to connect to this server's websocket.",
      ),
    );
    const { socket, onFailure } = consoleSocket();
    await socket.connect();
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(onFailure).toHaveBeenCalledWith(
      expect.objectContaining({
        message: "You do not have permission to connect to this server's websocket.",
      }),
    );
  });
});

describe('console socket: connection trouble', () => {
  it('reports trouble on an error until the next auth success', async () => {
    const { fake, socket, states } = await connected();
    fake.fail();
    expect(socket.state).toEqual({ connected: false, problem: 'connecting' });
    fake.open();
    expect(socket.state.problem).toBe('connecting');
    fake.receive('auth success');
    expect(states).toEqual([
      { connected: true, problem: null },
      { connected: false, problem: 'connecting' },
      { connected: true, problem: null },
    ]);
  });

  it('opens the socket again 1 s after an unexpected close and authenticates with the current token', async () => {
    const { fake, socket } = await connected();
    vi.useFakeTimers();
    fake.serverClose(1006);
    expect(socket.state.connected).toBe(false);
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    const next = FakeWebSocket.latest();
    expect(next.url).toBe(fake.url);
    next.open();
    expect(next.sent).toEqual([{ event: 'auth', args: ['token-1'] }]);
  });

  it.each([1000, 1001, 1005])('does not reconnect after close code %i', async (code) => {
    const { fake, socket } = await connected();
    vi.useFakeTimers();
    fake.serverClose(code);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket.state.connected).toBe(false);
  });

  it('drops an attempt that does not open in time and retries, waiting 5 s, 7.5 s, … up to 20 s', async () => {
    const { socket } = consoleSocket();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await socket.connect();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 9; attempt += 1) {
      const pending = FakeWebSocket.latest();
      const count = FakeWebSocket.instances.length;
      let waited = 0;
      while (FakeWebSocket.instances.length === count) {
        vi.advanceTimersByTime(500);
        waited += 500;
        if (waited > 60_000) throw new Error('no retry');
      }
      expect(pending.closedWith).toBe(1000);
      waits.push(waited);
    }
    expect(waits).toEqual([5000, 7500, 10_000, 12_500, 15_000, 17_500, 20_000, 20_000, 20_000]);
  });

  it('starts again from 5 s once an attempt opens', async () => {
    const { socket } = consoleSocket();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await socket.connect();
    vi.advanceTimersByTime(5000 + 7500);
    expect(FakeWebSocket.instances).toHaveLength(3);
    FakeWebSocket.latest().open();
    FakeWebSocket.latest().receive('auth success');
    // Open sockets are not timed out.
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(3);
    FakeWebSocket.latest().serverClose(1006);
    vi.advanceTimersByTime(1000);
    expect(FakeWebSocket.instances).toHaveLength(4);
    vi.advanceTimersByTime(4999);
    expect(FakeWebSocket.instances).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(5);
  });

  it('stops for good when closed: no retry, no events, the socket closed normally', async () => {
    const { fake, socket } = await connected();
    const lines: string[] = [];
    socket.on('console output', (line) => lines.push(line));
    vi.useFakeTimers();
    socket.close();
    expect(fake.closedWith).toBe(1000);
    fake.receive('console output', 'late');
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(lines).toEqual([]);
  });

  it.each([
    ['failure', true],
    ['pending', true],
    ['starting', false],
    ['success', false],
  ])('on transfer status "%s" rebuilds the connection: %s', async (status, rebuilds) => {
    const { fake, socket } = await connected();
    fake.receive('transfer status', status);
    if (rebuilds) {
      expect(socket.state).toEqual({ connected: false, problem: 'connecting' });
      await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
      expect(fake.closedWith).toBe(1000);
      FakeWebSocket.latest().open();
      expect(FakeWebSocket.latest().sent).toEqual([{ event: 'auth', args: ['token-2'] }]);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(FakeWebSocket.instances).toHaveLength(1);
      expect(socket.state.connected).toBe(true);
    }
  });
});
