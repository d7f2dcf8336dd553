import { createServer, type Server, Socket } from 'node:net';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The database goes away (issue 33: every request, the HTML page too, answered a bare 500 while PostgreSQL was
 * down). The panel reaches the real PostgreSQL or MariaDB of the run through a TCP relay of this test's, which it
 * cuts and restores; SQLite has no server to lose.
 */
const server = process.env.AERIE_TEST_DATABASE_URL;

/** Relays connections to host:port; `cut` ends every one and refuses new ones until `restore`. */
async function relayTo(host: string, port: number) {
  const open = new Set<Socket>();
  let cut = false;
  const relay: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    upstream.connect(port, host, () => {
      client.pipe(upstream);
      upstream.pipe(client);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as { port: number }).port,
    cut: () => {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore: () => {
      cut = false;
    },
    close: () => new Promise((resolve) => relay.close(resolve)),
  };
}

describe.runIf(server !== undefined)('the database going away and coming back', () => {
  let t: TestApp;
  let relay: Awaited<ReturnType<typeof relayTo>>;
  let user: { username: string; password: string };

  beforeAll(async () => {
    const real = new URL(server as string);
    relay = await relayTo(real.hostname, Number(real.port));
    const relayed = new URL(real);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    process.env.AERIE_TEST_DATABASE_URL = relayed.toString();
    try {
      t = await buildTestApp();
    } finally {
      process.env.AERIE_TEST_DATABASE_URL = server;
    }
    const created = await createTestUser(t.ctx);
    user = { username: created.user.username, password: created.password };
  });
  afterAll(async () => {
    relay?.restore();
    await t?.close();
    await relay?.close();
  });

  it('answers 503 in the envelope and a plain page while it is away, and keeps the session for its return', {
    timeout: 30_000,
  }, async () => {
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, user.password);
    expect((await browser.get('/api/client/account')).statusCode).toBe(200);

    relay.cut();
    const api = await browser.get('/api/client/account');
    expect(api.statusCode).toBe(503);
    expect(api.json()).toEqual({
      errors: [{ code: 'HttpException', status: '503', detail: errorMessages.databaseUnavailable }],
    });
    const page = await browser.get('/', { accept: 'text/html' });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(errorMessages.databaseUnavailable);

    relay.restore();
    // The same session, no new sign-in: the pool connects again by itself.
    let back = await browser.get('/api/client/account');
    for (let i = 0; i < 20 && back.statusCode !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      back = await browser.get('/api/client/account');
    }
    expect(back.statusCode).toBe(200);
    expect(back.json().attributes.username).toBe(user.username);
  });
});
