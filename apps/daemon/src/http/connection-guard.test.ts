import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { addressKey } from '@aerie/daemon/http-kit/connection-guard';
import { NODE_TOKEN } from '@aerie/daemon/testing/daemon-harness';
import { sleep, TestSocket } from '@aerie/daemon/websocket/testing/test-socket';
import {
  rawClient as connectRaw,
  floodOfHalfRequests,
  type RawClient,
} from '@aerie/shared/net/testing/raw-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionLimits, connectionCeiling, openFilesLimit } from './connection-limits';
import { startTestApp, type TestApp } from './testing/test-app';

const UUID = '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c';

let running: TestApp | undefined;
const clients: net.Socket[] = [];

async function start(connectionLimits: Partial<ConnectionLimits>): Promise<TestApp> {
  running = await startTestApp(UUID, { connectionLimits });
  return running;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await running?.close();
  running = undefined;
});

/** A raw TCP client of this test: closed when the test ends. */
const rawClient = (port: number, options: { localAddress?: string; send?: string } = {}) =>
  connectRaw(clients, port, options);

/** Half a request: the request line and one header, never the blank line that ends them. */
const HALF_REQUEST = 'GET /api/system HTTP/1.1\r\nHost: daemon\r\n';

/** A real request with the node token from `localAddress`; resolves with the status, rejects when refused. */
function request(
  port: number,
  route: string,
  options: { localAddress?: string; method?: string; headers?: Record<string, string | number> } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        path: route,
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        agent: false,
        headers: { authorization: `Bearer ${NODE_TOKEN}`, ...options.headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Resolves once `check` holds; rejects after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(20);
  }
}

/** A request on a kept-alive agent: the status, and whether it went out on a connection used before. */
function onAgent(port: number, agent: http.Agent, route = '/api/system') {
  return new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
    const outgoing = http.get(
      { host: '127.0.0.1', port, path: route, agent, headers: { authorization: `Bearer ${NODE_TOKEN}` } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, reused: outgoing.reusedSocket }),
        );
      },
    );
    outgoing.on('error', reject);
  });
}

/** `count` half-sent requests from each of 127.0.0.`first`…127.0.0.`last`. */
const flood = (port: number, first: number, last: number, count: number): Promise<RawClient[]> =>
  floodOfHalfRequests(clients, port, { first, last, count }, HALF_REQUEST);

describe('connection caps', () => {
  it("past the per-address cap, closes that address's longest-idle connection for the new one, never a proven one", async () => {
    const { port } = await start({ maxPerAddress: 5, headersTimeoutMs: 20_000, keepAliveTimeoutMs: 20_000 });
    const held = await Promise.all(Array.from({ length: 5 }, () => rawClient(port, { send: HALF_REQUEST })));
    // The address's own real request gets in: the oldest half-sent request makes room, unanswered.
    expect(await request(port, '/api/system')).toBe(200);
    await held[0]?.closed;
    expect(held[0]?.received()).toBe('');
    expect(held.slice(1).every((client) => client.isOpen())).toBe(true);
    expect(await request(port, '/api/system', { localAddress: '127.0.0.2' })).toBe(200);

    // Five connections that proved themselves with the node token and wait, kept alive, from one address: a sixth
    // connection from there is closed at once and the five stay usable.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 5, localAddress: '127.0.0.3' });
    const first = await Promise.all(Array.from({ length: 5 }, () => onAgent(port, agent)));
    expect(first.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await rawClient(port, { localAddress: '127.0.0.3', send: HALF_REQUEST });
    expect(await sixth.closed).toBeLessThan(1000);
    expect(sixth.received()).toBe('');
    const again = await Promise.all(Array.from({ length: 5 }, () => onAgent(port, agent)));
    expect(again).toEqual(Array(5).fill({ status: 200, reused: true }));
    agent.destroy();
  });

  it('lets every real request in while connections from 99 addresses fill the ceiling', async () => {
    const ceiling = 300;
    const { port, app } = await start({
      maxConnections: ceiling,
      maxPerAddress: 10,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 20_000,
    });
    // A panel connection that proved itself before the flood.
    const panelAgent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.200' });
    expect(await onAgent(port, panelAgent)).toEqual({ status: 200, reused: false });

    // 127.0.0.2 … 127.0.0.100 open 4 half-sent requests each: 396 connections for 300 places.
    const held = await flood(port, 2, 100, 4);
    // The daemon accepts the last of them a moment after the client saw them connect.
    await until(() => held.filter((client) => client.isOpen()).length === ceiling - 1);
    // Five real requests, from fresh addresses and from the flood's own: 5 of 5 answered.
    const statuses = await Promise.all(
      ['127.0.0.101', '127.0.0.102', '127.0.0.103', '127.0.0.2', '127.0.0.100'].map((localAddress) =>
        request(port, '/api/system', { localAddress }).catch(() => 0),
      ),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // The flood's oldest connections went to make room, its newest are held.
    expect(held[0]?.isOpen()).toBe(false);
    expect(held.at(-1)?.isOpen()).toBe(true);
    // The panel's kept-alive connection was never closed for the flood.
    expect(await onAgent(port, panelAgent)).toEqual({ status: 200, reused: true });
    panelAgent.destroy();

    // A refused node token proves nothing: its connection is one the flood may close.
    const wrong = await rawClient(port, {
      localAddress: '127.0.0.150',
      send: 'GET /api/system HTTP/1.1\r\nHost: daemon\r\nAuthorization: Bearer wrong\r\n\r\n',
    });
    await sleep(50);
    expect(wrong.received()).toMatch(/^HTTP\/1\.1 403/);
    await flood(port, 151, 190, 10);
    await until(() => !wrong.isOpen());
    expect(app.server.listening).toBe(true);
  });

  it('reads the ceiling from the descriptor limit: min(limit - 256, 16384)', async () => {
    expect(connectionCeiling(1024)).toBe(768);
    expect(connectionCeiling(20_000)).toBe(16_384);
    expect(connectionCeiling(undefined)).toBe(16_384);
    const limits = path.join(await mkdtemp(path.join(tmpdir(), 'aerie-limits-')), 'limits');
    await writeFile(
      limits,
      'Limit                     Soft Limit           Hard Limit           Units     \n' +
        'Max open files            4096                 524288               files     \n',
    );
    expect(openFilesLimit(limits)).toBe(4096);
    await rm(path.dirname(limits), { recursive: true });
    expect(openFilesLimit('/nonexistent/limits')).toBeUndefined();
    expect(openFilesLimit()).toBeGreaterThan(0);
  });

  it('counts IPv6 clients by their /64 and IPv4-mapped ones by their IPv4 address', () => {
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0db8:0000:0001:ffff:0:0:9')).toBe('2001:db8:0:1::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('time-outs', () => {
  it('answers a half-sent request with 408 and closes it after the header time-out, silent ones too', async () => {
    const { port } = await start({ headersTimeoutMs: 400 });
    const half = await rawClient(port, { send: HALF_REQUEST });
    const silent = await rawClient(port);
    await sleep(150);
    expect(half.isOpen()).toBe(true);
    const [halfClosedAfter, silentClosedAfter] = await Promise.all([half.closed, silent.closed]);
    for (const after of [halfClosedAfter, silentClosedAfter]) {
      expect(after).toBeGreaterThanOrEqual(350);
      expect(after).toBeLessThan(3000);
    }
    expect(half.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('lets a slow upload whose pauses stay under the idle time-out finish, however long it takes', async () => {
    const { port, root } = await start({ idleTimeoutMs: 400, headersTimeoutMs: 400 });
    const chunks = 12;
    const chunk = 'x'.repeat(1024);
    const body = await rawClient(port, {
      send:
        `POST /api/servers/${UUID}/files/write?file=slow.txt HTTP/1.1\r\nHost: daemon\r\n` +
        `Authorization: Bearer ${NODE_TOKEN}\r\nContent-Type: application/octet-stream\r\n` +
        `Content-Length: ${chunks * chunk.length}\r\nConnection: close\r\n\r\n`,
    });
    // 12 pieces 200 ms apart: about 2.4 s in all, six times the idle time-out.
    for (let i = 0; i < chunks; i += 1) {
      await sleep(200);
      body.socket.write(chunk);
    }
    await body.closed;
    expect(body.received()).toMatch(/^HTTP\/1\.1 204/);
    expect(await readFile(path.join(root, 'slow.txt'), 'utf8')).toBe(chunk.repeat(chunks));
  });

  it('closes a connection whose request body stops arriving for longer than the idle time-out', async () => {
    const { port, root } = await start({ idleTimeoutMs: 400 });
    const stalled = await rawClient(port, {
      send:
        `POST /api/servers/${UUID}/files/write?file=stalled.txt HTTP/1.1\r\nHost: daemon\r\n` +
        `Authorization: Bearer ${NODE_TOKEN}\r\nContent-Length: 100\r\n\r\n0123456789`,
    });
    const after = await stalled.closed;
    expect(after).toBeGreaterThanOrEqual(350);
    expect(after).toBeLessThan(3000);
    await expect(readFile(path.join(root, 'stalled.txt'))).rejects.toThrow();
  });

  it('lets a kept-alive connection go after a refused request whose body was never read', async () => {
    const { port } = await start({
      idleTimeoutMs: 20_000,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 300,
    });
    const refused = await rawClient(port, {
      send: `POST /api/servers/${UUID}/files/write?file=x HTTP/1.1\r\nHost: daemon\r\nContent-Length: 5\r\n\r\nhello`,
    });
    const after = await refused.closed;
    expect(refused.received()).toMatch(/^HTTP\/1\.1 401/);
    expect(after).toBeLessThan(3000);
  });

  it('never cuts a handler that works longer than the idle time-out, on a fresh or a kept-alive connection', async () => {
    const { port } = await start({ idleTimeoutMs: 300, keepAliveTimeoutMs: 300 });
    expect(await request(port, '/api/test/working?ms=1200')).toBe(200);
    // The same connection, kept alive between a quick request and a long one.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const onAgent = (ms: number) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(
            {
              host: '127.0.0.1',
              port,
              path: `/api/test/working?ms=${ms}`,
              agent,
              headers: { authorization: `Bearer ${NODE_TOKEN}` },
            },
            (response) => {
              response.resume();
              response.on('end', () => resolve(response.statusCode ?? 0));
            },
          )
          .on('error', reject);
      });
    const quick = await onAgent(0);
    await sleep(100);
    const long = await onAgent(1200);
    agent.destroy();
    expect([quick, long]).toEqual([200, 200]);
  });

  it('keeps a console websocket open through silences longer than every time-out', async () => {
    const { port, panel } = await start({
      idleTimeoutMs: 300,
      headersTimeoutMs: 300,
      keepAliveTimeoutMs: 300,
    });
    const socket = await TestSocket.open(`ws://127.0.0.1:${port}/api/servers/${UUID}/ws`, {
      origin: panel.url,
    });
    await socket.auth(await signTestToken({ server_uuid: UUID, permissions: ['*'] }, { key: NODE_TOKEN }));
    await sleep(1200);
    socket.send('send stats');
    await socket.next('stats');
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    socket.ws.terminate();
  });
});
