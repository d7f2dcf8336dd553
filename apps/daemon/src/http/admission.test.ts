import type { ServerManager } from '@aerie/daemon/server/server-manager';
import { whileEventLoopBehind } from '@aerie/shared/net/testing/event-loop-behind';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLOADED_MESSAGE } from './admission';
import { buildDaemonApp } from './app';

// Only requests refused before the node token, or by it, are made: no server is ever looked up.
const app = buildDaemonApp({
  config: { token: 'node-token', panelUrl: 'http://panel.test', allowedOrigins: [] },
  manager: {} as ServerManager,
  admission: { maxEventLoopDelayMs: 50, maxInFlight: 0, reservedInFlight: 0 },
});
beforeAll(() => app.ready());
afterAll(() => app.close());

describe('daemon admission control', () => {
  it('answers 503 with Retry-After while the event loop is behind, before the node token is read, and still answers the health check', {
    timeout: 30_000,
  }, async () => {
    const url = '/api/servers';
    // Without the node token this is refused by the token check: what it answers when the daemon is not loaded.
    const usual = (await app.inject({ method: 'GET', url })).statusCode;
    expect(usual).toBe(401);
    const seen = await whileEventLoopBehind(async () => {
      const refused = await app.inject({ method: 'GET', url });
      if (refused.statusCode !== 503) return undefined;
      return { refused, health: await app.inject({ method: 'GET', url: '/api/system' }) };
    });
    const { refused, health } = seen ?? {};
    expect(refused?.statusCode).toBe(503);
    expect(refused?.headers['retry-after']).toBe('2');
    expect(refused?.json()).toEqual({ error: OVERLOADED_MESSAGE });
    // Admitted: the node token is checked as usual (none was sent).
    expect(health?.statusCode).toBe(401);
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url })).statusCode, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(usual);
  });
});
