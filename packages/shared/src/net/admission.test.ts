import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { admitRequests, RETRY_AFTER_SECONDS } from './admission';

class Refused extends Error {
  statusCode = 503;
}

/** An app whose `/slow` answers only when told, and whose `/reserved` is in the reserved share. */
async function appWith(limits: Parameters<typeof admitRequests>[1]) {
  const app = Fastify();
  const held: (() => void)[] = [];
  const admission = admitRequests(app, limits, {
    reserved: (request) => request.url === '/reserved',
    refusal: () => new Refused('busy'),
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof Refused) {
      return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error: 'busy' });
    }
    return reply.send(error);
  });
  app.get('/slow', () => new Promise<string>((resolve) => held.push(() => resolve('done'))));
  app.get('/fast', async () => 'fast');
  app.get('/reserved', async () => 'reserved');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const release = () => {
    for (const answer of held.splice(0)) answer();
  };
  return { app, admission, base, release };
}

/** Blocks this process's event loop for `ms`, as a flood of work would. */
function block(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy on purpose
  }
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('admission control', () => {
  it('refuses at once with 503 and Retry-After once requests in flight reach the bound, keeps a share for reserved routes, and admits again when they end', async () => {
    const made = await appWith({ maxEventLoopDelayMs: 0, maxInFlight: 2, reservedInFlight: 1 });
    app = made.app;
    const slow = [fetch(`${made.base}/slow`), fetch(`${made.base}/slow`)];
    await expect.poll(() => made.admission.inFlight()).toBe(2);

    const refused = await fetch(`${made.base}/fast`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(await refused.json()).toEqual({ error: 'busy' });

    const reserved = await fetch(`${made.base}/reserved`);
    expect(reserved.status).toBe(200);

    made.release();
    for (const answer of await Promise.all(slow)) expect(await answer.text()).toBe('done');
    await expect.poll(() => made.admission.inFlight()).toBe(0);
    expect((await fetch(`${made.base}/fast`)).status).toBe(200);
  });

  it('refuses while the event loop is behind, except reserved routes, and admits again once it has caught up', async () => {
    const made = await appWith({ maxEventLoopDelayMs: 50, maxInFlight: 0, reservedInFlight: 0 });
    app = made.app;
    // Requests made in this process: `inject` runs the hooks without a socket, so it reads the state at once.
    const status = async (url: string) => (await made.app.inject({ method: 'GET', url })).statusCode;
    let sawRefusal = false;
    for (let round = 0; round < 20 && !sawRefusal; round++) {
      block(400);
      // Long enough for the overdue sample to run, shorter than the next one (every 100 ms).
      await new Promise((resolve) => setTimeout(resolve, 20));
      if ((await status('/fast')) === 503) {
        sawRefusal = true;
        expect(await status('/reserved')).toBe(200);
      }
    }
    expect(sawRefusal).toBe(true);
    await expect.poll(() => status('/fast'), { timeout: 10_000, interval: 200 }).toBe(200);
  });
});
