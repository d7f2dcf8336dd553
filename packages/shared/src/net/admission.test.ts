import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { admitRequests, RETRY_AFTER_SECONDS } from './admission';
import { blockEventLoop, whileEventLoopBehind } from './testing/event-loop-behind';

/** An app whose `/slow` answers only when told, and whose `/reserved` is in the reserved share. */
async function appWith(limits: Parameters<typeof admitRequests>[1], warnings: string[] = []) {
  const app = Fastify({
    logger: { level: 'warn', stream: { write: (line: string) => warnings.push(JSON.parse(line).msg) } },
  });
  const held: (() => void)[] = [];
  const admission = admitRequests(app, limits, {
    reserved: (request) => request.url === '/reserved',
    refuse: (reply) =>
      reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error: 'busy' }),
  });
  app.get('/slow', () => new Promise<string>((resolve) => held.push(() => resolve('done'))));
  app.get('/fast', async () => 'fast');
  app.get('/reserved', async () => 'reserved');
  await app.register(websocket);
  app.get('/socket', { websocket: true }, (socket) => socket.send('hello'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const release = () => {
    for (const answer of held.splice(0)) answer();
  };
  return { app, admission, base, release };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('admission control', () => {
  it('refuses at once with 503 and Retry-After once requests in flight reach the bound, keeps a share for reserved routes, and admits again when they end', async () => {
    const warnings: string[] = [];
    const made = await appWith({ maxEventLoopDelayMs: 0, maxInFlight: 2, reservedInFlight: 1 }, warnings);
    app = made.app;
    const slow = [fetch(`${made.base}/slow`), fetch(`${made.base}/slow`)];
    await expect.poll(() => made.admission.inFlight()).toBe(2);

    const refused = await fetch(`${made.base}/fast`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(await refused.json()).toEqual({ error: 'busy' });
    // Refusals go into one warning line per ten seconds, not one each.
    for (const again of await Promise.all([1, 2, 3].map(() => fetch(`${made.base}/fast`)))) {
      expect(again.status).toBe(503);
    }
    expect(warnings).toEqual([
      'overloaded: refused 1 request(s) since the last report (event loop 0 ms behind, 2 in flight)',
    ]);

    const reserved = await fetch(`${made.base}/reserved`);
    expect(reserved.status).toBe(200);

    made.release();
    for (const answer of await Promise.all(slow)) expect(await answer.text()).toBe('done');
    await expect.poll(() => made.admission.inFlight()).toBe(0);
    expect((await fetch(`${made.base}/fast`)).status).toBe(200);
  });

  it('does not count open websockets as requests in flight: more open consoles than the bound leave the API answering', async () => {
    const made = await appWith({ maxEventLoopDelayMs: 0, maxInFlight: 2, reservedInFlight: 1 });
    app = made.app;
    const sockets = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const socket = new WebSocket(`${made.base.replace('http', 'ws')}/socket`);
        await new Promise((resolve, reject) => {
          socket.once('message', resolve);
          socket.once('unexpected-response', (_request, response) =>
            reject(new Error(`refused: ${response.statusCode}`)),
          );
        });
        return socket;
      }),
    );
    expect(made.admission.inFlight()).toBe(0);
    expect((await fetch(`${made.base}/fast`)).status).toBe(200);
    // A handshake is still checked like any request: with the bound reached, a new socket is refused.
    const slow = [fetch(`${made.base}/slow`), fetch(`${made.base}/slow`)];
    await expect.poll(() => made.admission.inFlight()).toBe(2);
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${made.base.replace('http', 'ws')}/socket`);
      socket.once('unexpected-response', (request, response) => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
      socket.once('open', () => resolve(101));
    });
    expect(refused).toBe(503);
    made.release();
    await Promise.all(slow);
    for (const socket of sockets) socket.terminate();
  });

  it('admits from the first request, and after a pause shorter than the bound, however few samples were taken', async () => {
    const made = await appWith({ maxEventLoopDelayMs: 500, maxInFlight: 0, reservedInFlight: 0 });
    app = made.app;
    const status = async () => (await made.app.inject({ method: 'GET', url: '/fast' })).statusCode;
    // Before any sample: a started app is not a loaded one.
    expect(await status()).toBe(200);
    for (let round = 0; round < 5; round++) {
      blockEventLoop(150);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await status()).toBe(200);
    }
    expect(made.admission.eventLoopDelay()).toBeLessThan(500);
  });

  it('takes the requests right behind one pause longer than the bound: a mean over the last second, not one tick', async () => {
    const made = await appWith({ maxEventLoopDelayMs: 500, maxInFlight: 0, reservedInFlight: 0 });
    app = made.app;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    blockEventLoop(700);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await made.app.inject({ method: 'GET', url: '/fast' })).statusCode).toBe(200);
  });

  it('refuses while the event loop is behind, except reserved routes, and admits again once it has caught up', async () => {
    const made = await appWith({ maxEventLoopDelayMs: 50, maxInFlight: 0, reservedInFlight: 0 });
    app = made.app;
    // Requests made in this process: `inject` runs the hooks without a socket, so it reads the state at once.
    const status = async (url: string) => (await made.app.inject({ method: 'GET', url })).statusCode;
    const reserved = await whileEventLoopBehind(async () =>
      (await status('/fast')) === 503 ? status('/reserved') : undefined,
    );
    // Refused at some point (else undefined), and the reserved route answered right then.
    expect(reserved).toBe(200);
    await expect.poll(() => status('/fast'), { timeout: 10_000, interval: 200 }).toBe(200);
  });
});
