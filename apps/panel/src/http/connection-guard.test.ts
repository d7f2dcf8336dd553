import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@aerie/panel/config/load-config';
import { createAdminWithKey } from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { connectionCeiling } from '@aerie/shared/net/connection-limits';
import {
  rawClient as connectRaw,
  floodOfHalfRequests,
  type RawClient,
} from '@aerie/shared/net/testing/raw-client';
import { afterEach, describe, expect, it } from 'vitest';

let running: TestApp | undefined;
const clients: net.Socket[] = [];

/** The real panel listening on 127.0.0.1 with the given PANEL_* variables. */
async function start(env: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const t = await buildTestApp({ env });
  running = t;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  return { t, port: typeof address === 'object' && address ? address.port : 0 };
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  running?.app.server.closeAllConnections();
  await running?.close();
  running = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds; rejects after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(20);
  }
}

/** A raw TCP client of this test: closed when the test ends. */
const rawClient = (port: number, options: { localAddress?: string; send?: string } = {}) =>
  connectRaw(clients, port, options);

/** Half a request for the sign-in page: the request line and one header, never the blank line that ends them. */
const HALF_REQUEST = 'GET /auth/login HTTP/1.1\r\nHost: panel.test\r\n';

/** `count` half-sent requests from each of 127.0.0.`first`…127.0.0.`last`. */
const flood = (port: number, first: number, last: number, count: number): Promise<RawClient[]> =>
  floodOfHalfRequests(clients, port, { first, last, count }, HALF_REQUEST);

interface Answer {
  status: number;
  body: string;
  /** It went out on a kept-alive connection used before. */
  reused: boolean;
}

/** A real request; resolves with what came back, or status 0 when the connection was refused or cut. */
function get(
  port: number,
  path: string,
  options: { localAddress?: string; agent?: http.Agent; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const outgoing = http.get(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress: options.agent ? undefined : options.localAddress,
        agent: options.agent ?? false,
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, reused: outgoing.reusedSocket }),
        );
      },
    );
    outgoing.on('error', () => resolve({ status: 0, body: '', reused: false }));
  });
}

const applicationHeaders = (bearer: string) => ({
  authorization: `Bearer ${bearer}`,
  accept: 'Application/vnd.pterodactyl.v1+json',
});

describe('panel connection bounds', () => {
  it("past the per-address cap, closes that address's longest-idle connection for the new one", async () => {
    const { port } = await start({ PANEL_MAX_CONNECTIONS_PER_ADDRESS: '20', PANEL_HEADERS_TIMEOUT: '20' });
    const held = await flood(port, 1, 1, 40);
    // The panel holds 20 of them: the oldest 20 were closed, unanswered, as the newer ones came.
    await until(() => held.filter((client) => client.isOpen()).length === 20);
    expect(held.slice(0, 20).every((client) => !client.isOpen() && client.received() === '')).toBe(true);
    // A real sign-in page request from the same address still answers.
    const page = await get(port, '/auth/login', { localAddress: '127.0.0.1' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<!doctype html>');
  });

  it('answers the sign-in page and the API while half-sent requests from 15 addresses fill the ceiling', async () => {
    const { t, port } = await start({
      PANEL_MAX_CONNECTIONS: '200',
      PANEL_MAX_CONNECTIONS_PER_ADDRESS: '20',
      PANEL_HEADERS_TIMEOUT: '20',
      PANEL_KEEP_ALIVE_TIMEOUT: '20',
    });
    const { bearer } = await createAdminWithKey(t.ctx);
    // A script's kept-alive connection that carried an API key before the flood.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.200' });
    const before = await get(port, '/api/application/users', { agent, headers: applicationHeaders(bearer) });
    expect(before).toMatchObject({ status: 200, reused: false });

    // 127.0.0.2 … 127.0.0.16, 20 half-sent requests each: 300 connections for 200 places.
    const held = await flood(port, 2, 16, 20);
    await until(() => held.filter((client) => client.isOpen()).length === 200 - 1);

    // 15 sign-in pages and 5 API requests, from fresh addresses and from the flood's own: every one answered.
    const pages = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        get(port, '/auth/login', { localAddress: `127.0.0.${i % 2 === 0 ? 100 + i : 2 + i}` }),
      ),
    );
    expect(pages.map((page) => page.status)).toEqual(Array(15).fill(200));
    const api = await Promise.all(
      ['127.0.0.120', '127.0.0.121', '127.0.0.3', '127.0.0.9', '127.0.0.16'].map((localAddress) =>
        get(port, '/api/application/users', { localAddress, headers: applicationHeaders(bearer) }),
      ),
    );
    expect(api.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    // The kept-alive API connection was never closed for the flood; the flood's oldest were.
    const after = await get(port, '/api/application/users', { agent, headers: applicationHeaders(bearer) });
    expect(after).toMatchObject({ status: 200, reused: true });
    expect(held[0]?.isOpen()).toBe(false);
    expect(held.at(-1)?.isOpen()).toBe(true);
    agent.destroy();
  });

  it('answers a half-sent request with 408 and closes a stalled body after their time-outs', async () => {
    const { t, port } = await start({ PANEL_HEADERS_TIMEOUT: '1', PANEL_IDLE_TIMEOUT: '1' });
    const { bearer } = await createAdminWithKey(t.ctx);
    const half = await rawClient(port, { send: HALF_REQUEST });
    const silent = await rawClient(port);
    // An authorised request whose body stops after 8 of its 100 bytes.
    const stalled = await rawClient(port, {
      send:
        'POST /api/application/users HTTP/1.1\r\nHost: panel.test\r\n' +
        `Authorization: Bearer ${bearer}\r\nAccept: application/json\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email"',
    });
    const closes = await Promise.all([half.closed, silent.closed, stalled.closed]);
    for (const after of closes) {
      expect(after).toBeGreaterThanOrEqual(900);
      expect(after).toBeLessThan(4000);
    }
    expect(half.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });

  it('reads the PANEL_* variables, with defaults from the descriptor limit', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aerie-connections-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).connections).toEqual({
        maxConnections: connectionCeiling(),
        maxPerAddress: 256,
        headersTimeoutMs: 15_000,
        idleTimeoutMs: 60_000,
        keepAliveTimeoutMs: 5_000,
      });
      const env = {
        DATA_DIR: dataDir,
        PANEL_MAX_CONNECTIONS: '5000',
        PANEL_MAX_CONNECTIONS_PER_ADDRESS: '1000',
        PANEL_HEADERS_TIMEOUT: '10',
        PANEL_IDLE_TIMEOUT: '30',
        PANEL_KEEP_ALIVE_TIMEOUT: '65',
      };
      expect(loadConfig(env).connections).toEqual({
        maxConnections: 5000,
        maxPerAddress: 1000,
        headersTimeoutMs: 10_000,
        idleTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
      });
      expect(() => loadConfig({ ...env, PANEL_MAX_CONNECTIONS: '0', PANEL_HEADERS_TIMEOUT: '1.5' })).toThrow(
        new ConfigError(
          'Invalid configuration:\n' +
            '  - PANEL_MAX_CONNECTIONS: must be a whole number of connections from 1 (got "0")\n' +
            '  - PANEL_HEADERS_TIMEOUT: must be a whole number of seconds from 1 (got "1.5")',
        ),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
