import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { JWT_ERROR_MESSAGES } from '@aerie/daemon/auth/jwt-errors';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { consoleWebsocketPlugins } from '@aerie/daemon/websocket/daemon-plugins';
import { sleep, TestSocket } from '@aerie/daemon/websocket/testing/test-socket';
import { CLOSE } from '@aerie/daemon/websocket/websocket-limits';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedFileRoutes } from './signed-file-routes';

/** Taking access away on the daemon (issue 22, deliverable 5): deny by jti, by user, node-wide, and suspension. */
const SERVER = '4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a';
const OTHER = '8a7b6c5d-4e3f-4a1b-8c9d-0e1f2a3b4c5d';
const SUSPENDABLE = 'e1d2c3b4-a596-4877-8a9b-0c1d2e3f4a5b';
const ALICE = '11111111-2222-4333-8444-555555555555';
const BOB = '66666666-7777-4888-8999-aaaaaaaaaaaa';

let panel: PanelStandIn;
let daemon: TestDaemon;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  panel = await startPanelStandIn();
  for (const uuid of [SERVER, OTHER, SUSPENDABLE]) panel.servers.set(uuid, fileServerConfiguration(uuid));
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-revocation-'));
  // Tokens are signed in the same second as the daemon starts: count its boot a minute earlier.
  const denylist = new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) });
  daemon = await startTestDaemon({
    panel,
    dataDirectory,
    plugins: {
      ...consoleWebsocketPlugins({ denylist }),
      ...signedFileRoutes({ dataDirectory, uploadLimitMb: 1, denylist }),
    },
  });
  for (const uuid of [SERVER, OTHER, SUSPENDABLE]) {
    await writeFile(path.join(daemon.dataDirectory, 'volumes', uuid, 'notes.txt'), 'notes');
  }
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

const now = () => Math.floor(Date.now() / 1000);
/** The panel's jti: md5(user id . server uuid); the user's uuid stands in for the id. */
const jtiOf = (user: string, server: string) => createHash('md5').update(`${user}${server}`).digest('hex');

/** Claims as the panel signs them for `user` on `server`; `iat` a few seconds ago unless told. */
const claimsOf = (user: string, server: string, claims: Record<string, unknown> = {}) => ({
  server_uuid: server,
  user_uuid: user,
  jti: jtiOf(user, server),
  permissions: ['*'],
  iat: now() - 5,
  unique_id: randomUUID().replace(/-/g, ''),
  ...claims,
});
const socketToken = (user: string, server: string, claims: Record<string, unknown> = {}) =>
  signTestToken(claimsOf(user, server, claims), { key: NODE_TOKEN });
const downloadToken = (user: string, server: string, claims: Record<string, unknown> = {}) =>
  signTestToken(claimsOf(user, server, { purpose: 'file_download', file_path: 'notes.txt', ...claims }), {
    key: NODE_TOKEN,
  });
const uploadToken = (user: string, server: string, claims: Record<string, unknown> = {}) =>
  signTestToken(claimsOf(user, server, { purpose: 'file_upload', ...claims }), { key: NODE_TOKEN });

/** A token "issued after" a deny carries a later second than it (iat has whole seconds). */
const afterThisSecond = async () => {
  const second = now();
  while (now() === second) await sleep(20);
};

async function open(server: string): Promise<TestSocket> {
  const socket = await TestSocket.open(`${daemon.url.replace('http', 'ws')}/api/servers/${server}/ws`, {
    origin: panel.url,
  });
  sockets.push(socket);
  return socket;
}
async function connect(user: string, server: string): Promise<TestSocket> {
  const socket = await open(server);
  await socket.auth(await socketToken(user, server));
  return socket;
}
/** The reply to an `auth` on a fresh socket: `auth success`, or what refused it. */
async function authReply(server: string, token: string) {
  const socket = await open(server);
  socket.send('auth', [token]);
  const reply = await socket.waitFor((m) => ['auth success', 'jwt error', 'daemon error'].includes(m.event));
  return { event: reply.event, args: reply.args, socket };
}

const download = (token: string) =>
  rawRequest(daemon, 'GET', `/download/file?token=${encodeURIComponent(token)}`, { token: null });
function upload(token: string, name: string) {
  const body = new FormData();
  body.append('files', new Blob(['uploaded']), name);
  return rawRequest(daemon, 'POST', `/upload/file?token=${encodeURIComponent(token)}&directory=/`, {
    body,
    token: null,
  });
}
const deny = (route: string, body: unknown, token: string | null = NODE_TOKEN) =>
  daemon.request('POST', route, { body, token });

const stillServed = async (socket: TestSocket) => {
  socket.send('send stats');
  await socket.next('stats');
  expect(socket.ws.readyState).toBe(socket.ws.OPEN);
};

const REVOKED = { code: CLOSE.tokenRevoked.code, reason: CLOSE.tokenRevoked.reason };
const DENIED_EVENT = { event: 'jwt error', args: [JWT_ERROR_MESSAGES.denylisted] };

describe('deny by user on one server', () => {
  it("closes that user's sockets on that server at once, and leaves other users and servers alone", async () => {
    const alice = await connect(ALICE, SERVER);
    const aliceElsewhere = await connect(ALICE, OTHER);
    const bob = await connect(BOB, SERVER);
    const preDeny = await socketToken(ALICE, SERVER);

    expect((await deny(`/api/servers/${SERVER}/ws/deny`, { user_uuids: [ALICE] })).status).toBe(204);
    expect(await alice.closed).toEqual(REVOKED);
    expect(alice.messages.at(-1)).toEqual(DENIED_EVENT);
    await stillServed(bob);
    await stillServed(aliceElsewhere);

    // The old token opens nothing any more, whatever its jti; one issued after the deny does.
    expect(await authReply(SERVER, preDeny)).toMatchObject(DENIED_EVENT);
    expect(await authReply(SERVER, await socketToken(ALICE, SERVER, { jti: 'another-jti' }))).toMatchObject(
      DENIED_EVENT,
    );
    await afterThisSecond();
    expect((await authReply(SERVER, await socketToken(ALICE, SERVER, { iat: now() }))).event).toBe(
      'auth success',
    );
  });

  it('refuses signed download and upload URLs issued before it, and takes ones issued after', async () => {
    const oldDownload = await downloadToken(ALICE, OTHER);
    const oldUpload = await uploadToken(ALICE, OTHER);
    const bobsDownload = await downloadToken(BOB, OTHER);
    expect((await deny(`/api/servers/${OTHER}/ws/deny`, { user_uuids: [ALICE] })).status).toBe(204);

    const refused = { status: 403, json: { error: JWT_ERROR_MESSAGES.denylisted } };
    expect(await download(oldDownload)).toMatchObject(refused);
    expect(await upload(oldUpload, 'before.txt')).toMatchObject(refused);
    expect((await download(bobsDownload)).bytes.toString()).toBe('notes');

    await afterThisSecond();
    expect((await download(await downloadToken(ALICE, OTHER, { iat: now() }))).bytes.toString()).toBe(
      'notes',
    );
    expect((await upload(await uploadToken(ALICE, OTHER, { iat: now() }), 'after.txt')).status).toBe(200);
  });

  it('denies by jti as Wings does, signed URLs of that jti included, and keeps {"jtis"} alone working', async () => {
    const alice = await connect(ALICE, SUSPENDABLE);
    const bob = await connect(BOB, SUSPENDABLE);
    const oldDownload = await downloadToken(ALICE, SUSPENDABLE);
    const body = { jtis: [jtiOf(ALICE, SUSPENDABLE)] };
    expect((await deny(`/api/servers/${SUSPENDABLE}/ws/deny`, body)).status).toBe(204);
    expect(await alice.closed).toEqual(REVOKED);
    await stillServed(bob);
    expect(await download(oldDownload)).toMatchObject({ status: 403 });
  });

  it('answers a body it cannot use with 400, an unknown server with 404, and no node token with 401', async () => {
    const route = `/api/servers/${SERVER}/ws/deny`;
    const unparsable = {
      status: 400,
      body: { error: 'The data passed in the request was not in a parsable format. Please try again.' },
    };
    for (const body of [
      {},
      { user_uuids: 'not-a-list' },
      { user_uuids: [''] },
      { jtis: [42] },
      { user_uuids: Array.from({ length: 1001 }, (_, i) => `user-${i}`) },
    ]) {
      expect(await deny(route, body), JSON.stringify(body).slice(0, 80)).toMatchObject(unparsable);
    }
    expect(
      (await deny('/api/servers/00000000-0000-4000-8000-00000000abcd/ws/deny', { jtis: [] })).status,
    ).toBe(404);
    expect((await deny(route, { user_uuids: [ALICE] }, null)).status).toBe(401);
  });
});

describe('deny by user on the whole node', () => {
  it("closes the user's sockets on every server and refuses their URLs, other users' stay", async () => {
    const carol = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const onServer = await connect(carol, SERVER);
    const onOther = await connect(carol, OTHER);
    const bob = await connect(BOB, OTHER);
    const oldDownload = await downloadToken(carol, SERVER);

    expect((await deny('/api/deny', { user_uuids: [carol] }, null)).status).toBe(401);
    expect((await deny('/api/deny', { jtis: ['x'] })).status).toBe(400);
    expect((await deny('/api/deny', { user_uuids: [carol] })).status).toBe(204);
    expect(await onServer.closed).toEqual(REVOKED);
    expect(await onOther.closed).toEqual(REVOKED);
    await stillServed(bob);
    expect(await download(oldDownload)).toMatchObject({ status: 403 });
    await afterThisSecond();
    expect((await authReply(OTHER, await socketToken(carol, OTHER, { iat: now() }))).event).toBe(
      'auth success',
    );
  });
});

describe('a suspended server', () => {
  afterAll(async () => {
    panel.servers.set(SUSPENDABLE, fileServerConfiguration(SUSPENDABLE));
    await daemon.request('POST', `/api/servers/${SUSPENDABLE}/sync`);
  });

  it('closes its open sockets when a sync suspends it, and then refuses socket auths and signed URLs', async () => {
    const socket = await connect(BOB, SUSPENDABLE);
    const unauthenticated = await open(SUSPENDABLE);
    const preSuspension = await downloadToken(BOB, SUSPENDABLE, { iat: now() });
    const uploadUrl = await uploadToken(BOB, SUSPENDABLE, { iat: now() });
    const bobElsewhere = await connect(BOB, SERVER);

    const suspended = fileServerConfiguration(SUSPENDABLE);
    suspended.settings.suspended = true;
    panel.servers.set(SUSPENDABLE, suspended);
    expect((await daemon.request('POST', `/api/servers/${SUSPENDABLE}/sync`)).status).toBe(204);

    const suspendedClose = { code: CLOSE.serverSuspended.code, reason: CLOSE.serverSuspended.reason };
    expect(await socket.closed).toEqual(suspendedClose);
    expect(socket.messages.at(-1)?.event).toBe('daemon error');
    expect(socket.messages.at(-1)?.args?.[0]).toMatch(/server is currently in a suspended state$/);
    expect(await unauthenticated.closed).toEqual(suspendedClose);
    await stillServed(bobElsewhere);

    const fresh = await authReply(SUSPENDABLE, await socketToken(BOB, SUSPENDABLE, { iat: now() }));
    expect(fresh.event).toBe('daemon error');
    expect(await fresh.socket.closed).toEqual(suspendedClose);
    const conflict = { status: 409, json: { error: serverMessages.suspended } };
    expect(await download(preSuspension)).toMatchObject(conflict);
    expect(await download(await downloadToken(BOB, SUSPENDABLE, { iat: now() }))).toMatchObject(conflict);
    expect(await upload(uploadUrl, 'while-suspended.txt')).toMatchObject(conflict);

    // Lifted by the next sync: the URL that was refused (and so never spent) works again.
    panel.servers.set(SUSPENDABLE, fileServerConfiguration(SUSPENDABLE));
    expect((await daemon.request('POST', `/api/servers/${SUSPENDABLE}/sync`)).status).toBe(204);
    expect((await download(preSuspension)).bytes.toString()).toBe('notes');
  });
});

describe('tokens from before the daemon started', () => {
  it('refuses a signed URL issued before the boot, as it does socket tokens', async () => {
    const beforeBoot = now() - 120;
    expect(await download(await downloadToken(BOB, SERVER, { iat: beforeBoot }))).toMatchObject({
      status: 403,
      json: { error: JWT_ERROR_MESSAGES.denylisted },
    });
    expect(await authReply(SERVER, await socketToken(BOB, SERVER, { iat: beforeBoot }))).toMatchObject(
      DENIED_EVENT,
    );
  });
});
