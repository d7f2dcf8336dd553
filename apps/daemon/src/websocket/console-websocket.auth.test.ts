import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConsoleDaemon, SERVER_A, SERVER_B, startConsoleDaemon } from './testing/console-daemon';
import { sleep, TestSocket } from './testing/test-socket';

let daemon: ConsoleDaemon;
const now = () => Math.floor(Date.now() / 1000);

beforeEach(async () => {
  daemon = await startConsoleDaemon({ limits: { tokenCheckIntervalMs: 100 } });
});
afterEach(async () => {
  await daemon.close();
});

const connect = async (uuid = SERVER_A) => daemon.track(await TestSocket.open(daemon.url(uuid)));
const token = (claims: Parameters<typeof signTestToken>[0] = {}) =>
  signTestToken({ server_uuid: SERVER_A, permissions: ['*'], ...claims });

/** Sends `auth` and returns the reply's event and first argument. */
async function authReply(socket: TestSocket, jwt: string) {
  const next = socket.next('jwt error').catch(() => undefined);
  const success = socket.next('auth success').catch(() => undefined);
  socket.send('auth', [jwt]);
  const reply = await Promise.race([next, success]);
  return reply ? [reply.event, reply.args?.[0]] : ['nothing'];
}

describe('console websocket: auth', () => {
  it('answers a valid token with auth success, the status and, while offline, one stats', async () => {
    const socket = await connect();
    socket.send('auth', [await token()]);
    const stats = await socket.next('stats');
    expect(socket.events()).toEqual(['auth success', 'status', 'stats']);
    expect(socket.messages[0]).toEqual({ event: 'auth success' });
    expect(socket.messages[1]).toEqual({ event: 'status', args: ['offline'] });
    expect(JSON.parse(stats.args?.[0] ?? '')).toMatchObject({ state: 'offline', uptime: 0, memory_bytes: 0 });
  });

  it('sends no stats on auth while the server installs', async () => {
    daemon.server().isInstalling = true;
    const socket = await connect();
    await socket.auth(await token());
    await sleep(200);
    expect(socket.events()).toEqual(['auth success', 'status']);
  });

  it.each([
    ['a download token', () => token({ purpose: 'file_download' }), 'jwt: purpose claim is invalid'],
    ['an expired token', () => token({ exp: now() - 5 }), 'jwt: exp claim is invalid'],
    [
      'a token not valid before a minute from now',
      () => token({ nbf: now() + 60 }),
      'jwt: nbf claim is invalid',
    ],
    ["another server's token", () => token({ server_uuid: SERVER_B }), 'jwt: server uuid mismatch'],
    [
      'a token without websocket.connect',
      () => token({ permissions: ['control.console'] }),
      'jwt: missing connect permission',
    ],
    [
      'a token signed with another key',
      () => signTestToken({ server_uuid: SERVER_A }, { key: 'other' }),
      'jwt: HMAC verification failed',
    ],
    ['no token', async () => '', 'jwt: no jwt present'],
  ])(
    'refuses %s with a jwt error and then treats the socket as unauthenticated',
    async (_name, make, reason) => {
      const socket = await connect();
      expect(await authReply(socket, await make())).toEqual(['jwt error', reason]);
      socket.send('send stats');
      expect((await socket.next('jwt error')).args).toEqual(['jwt: no jwt present']);
      expect(socket.events()).not.toContain('stats');
    },
  );

  it('refuses a token issued before the daemon started', async () => {
    await daemon.close();
    daemon = await startConsoleDaemon({ bootTime: new Date() });
    const socket = await connect();
    expect(await authReply(socket, await token({ iat: now() - 10 }))).toEqual([
      'jwt error',
      'jwt: created too far in past (denylist)',
    ]);
    expect(await authReply(socket, await token({ iat: now() + 2 }))).toEqual(['auth success', undefined]);
  });

  it('answers events sent before auth with a jwt error', async () => {
    const socket = await connect();
    socket.send('set state', ['start']);
    expect((await socket.next('jwt error')).args).toEqual(['jwt: no jwt present']);
    await sleep(200);
    expect(daemon.server().state).toBe('offline');
  });

  it('refuses a denied jti issued before the deny, on open sockets too, and accepts one issued after', async () => {
    const jti = 'd41d8cd98f00b204e9800998ecf8427e';
    const open = await connect();
    await open.auth(await token({ jti, iat: now() - 5 }));
    const response = await fetch(`${daemon.address}/api/servers/${SERVER_A}/ws/deny`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jtis: [jti] }),
    });
    expect(response.status).toBe(204);

    expect(await open.closed).toEqual({ code: 1008, reason: 'token revoked' });
    expect(open.messages.at(-1)).toEqual({
      event: 'jwt error',
      args: ['jwt: created too far in past (denylist)'],
    });
    const fresh = await connect();
    expect(await authReply(fresh, await token({ jti, iat: now() - 5 }))).toEqual([
      'jwt error',
      'jwt: created too far in past (denylist)',
    ]);
    // Issued after the deny (iat counts whole seconds, so the next one).
    expect(await authReply(fresh, await token({ jti, iat: now() + 1 }))).toEqual(['auth success', undefined]);
    // Another user's token on the same server was never denied.
    expect(await authReply(await connect(), await token({ jti: 'another-user', iat: now() - 5 }))).toEqual([
      'auth success',
      undefined,
    ]);
  });

  it('answers a deny with an unusable body with 400', async () => {
    const response = await fetch(`${daemon.address}/api/servers/${SERVER_A}/ws/deny`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jtis: 'not-a-list' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'The data passed in the request was not in a parsable format. Please try again.',
    });
  });

  it('swaps the token on a second auth without a second status or duplicate events', async () => {
    const socket = await connect();
    await socket.auth(await token());
    await socket.waitFor((m) => m.event === 'stats');
    const from = socket.messages.length;
    await socket.auth(await token({ unique_id: 'second' }));
    daemon.server().emit('daemon message', 'once');
    await socket.next('daemon message');
    await sleep(100);
    expect(socket.events(from)).toEqual(['auth success', 'daemon message']);
  });

  it('keeps the valid token when a bad one is sent later', async () => {
    const socket = await connect();
    await socket.auth(await token());
    expect(await authReply(socket, await token({ purpose: 'file_upload' }))).toEqual([
      'jwt error',
      'jwt: purpose claim is invalid',
    ]);
    socket.send('send stats');
    await socket.next('stats');
  });

  it('says token expiring a minute ahead, then token expired, then refuses with a jwt error once', async () => {
    const socket = await connect();
    await socket.auth(await token({ exp: now() + 62 }));
    await socket.next('token expiring', () => true, 3000);

    const shortLived = await connect();
    await shortLived.auth(await token({ exp: now() + 2 }));
    await shortLived.next('token expired', () => true, 4000);
    const from = shortLived.messages.length;
    daemon.server().emit('daemon message', 'not for an expired token');
    daemon.server().emit('daemon message', 'nor this');
    await shortLived.next('jwt error');
    shortLived.send('send stats');
    await shortLived.next('jwt error');
    await sleep(150);
    const seen = shortLived.messages.slice(from).filter((m) => m.event !== 'token expired');
    expect(seen).toEqual([
      { event: 'jwt error', args: ['jwt: exp claim is invalid'] },
      { event: 'jwt error', args: ['jwt: exp claim is invalid'] },
    ]);
  });

  it('ignores frames it cannot parse and stays open', async () => {
    const socket = await connect();
    socket.ws.send('not json');
    socket.ws.send(JSON.stringify({ event: 'auth', args: [1, 2] }));
    socket.ws.send(JSON.stringify(['auth']));
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await socket.auth(await token());
    expect(socket.events()[0]).toBe('auth success');
  });

  it('closes a socket that does not authenticate in time with 1008', async () => {
    await daemon.close();
    daemon = await startConsoleDaemon({ limits: { authTimeoutMs: 300 } });
    const idle = await connect();
    const authed = await connect();
    await authed.auth(await token());
    expect(await idle.closed).toEqual({ code: 1008, reason: 'authentication timeout' });
    await sleep(100);
    expect(authed.ws.readyState).toBe(authed.ws.OPEN);
  });
});
