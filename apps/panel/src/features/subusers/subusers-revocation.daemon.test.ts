import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call, openSftp, type SftpClient } from '@aerie/daemon/sftp/testing/sftp-stand';
import type { DaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { TestSocket } from '@aerie/daemon/websocket/testing/test-socket';
import type { User } from '@aerie/panel/features/users/user';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { createServerOnNode, startRealNode } from '@aerie/panel/test/real-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Taking a subuser's access away through the Users routes ends it at once on a real `aerie daemon`: their open
 * console socket is told `jwt error` and closed, the signed file URLs they hold are refused, their SFTP session is
 * closed, and the panel answers them 404. A narrowing does the same to what they hold; fresh tokens then carry
 * what is left.
 */
// biome-ignore lint/suspicious/noExplicitAny: answers are read the way a script reads them.
type Json = Record<string, any>;

let t: TestApp;
let directory: string;
let daemon: DaemonProcess | undefined;
let panelUrl: string;
let sftpPort: number;
let identifier: string;
let owner: TestBrowser;
const sockets: TestSocket[] = [];
const clients: SftpClient[] = [];

const base = () => `/api/client/servers/${identifier}`;
const payload = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as Json;
/** The same-second rule: a token signed in the second of a deny counts as before it, so wait for the next. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)));

async function openConsole(browser: TestBrowser): Promise<{ socket: TestSocket; permissions: string[] }> {
  const credentials = (await browser.get(`${base()}/websocket`)).json().data as {
    token: string;
    socket: string;
  };
  const socket = await TestSocket.open(credentials.socket, { origin: panelUrl });
  sockets.push(socket);
  await socket.auth(credentials.token);
  return { socket, permissions: payload(credentials.token).permissions };
}

const downloadUrl = async (browser: TestBrowser) =>
  (await browser.get(`${base()}/files/download?file=%2Fnote.txt`)).json().attributes.url as string;

/** Resolves true once the socket closed with the daemon's revocation, false after `ms`. */
async function revokedWithin(socket: TestSocket, ms: number): Promise<boolean> {
  const closed = await Promise.race([
    socket.closed,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
  ]);
  if (!closed) return false;
  expect(closed).toEqual({ code: 1008, reason: 'token revoked' });
  expect(socket.messages.at(-1)).toEqual({
    event: 'jwt error',
    args: ['jwt: created too far in past (denylist)'],
  });
  return true;
}

beforeAll(async () => {
  t = await buildTestApp();
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-subuser-revocation-'));
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  for (const client of clients) client.end();
  daemon?.process.kill('SIGINT');
  await daemon?.exited;
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

/** A node made through the Application API, its daemon started from its document, a server on it. */
async function setUp(): Promise<void> {
  panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const node = await startRealNode(t, panelUrl, directory, 'Revocation node');
  ({ sftpPort, daemon } = node);
  const { user, password } = await createTestUser(t.ctx);
  owner = new TestBrowser(t.app);
  await owner.signIn(user.username, password);
  identifier = (
    await createServerOnNode(t, node, { name: 'Shared with a friend', ownerId: user.id, skipScripts: true })
  ).identifier;
  const write = await owner.send('POST', `${base()}/files/write?file=%2Fnote.txt`, 'shared note', {
    headers: { 'content-type': 'text/plain' },
  });
  expect(write.statusCode).toBe(204);
}

/** Someone with an account, signed in, invited by the owner with `permissions`. */
async function friend(
  permissions: string[],
): Promise<{ user: User; password: string; browser: TestBrowser }> {
  const { user, password } = await createTestUser(t.ctx);
  const invited = await owner.post(`${base()}/users`, { email: user.email, permissions });
  expect(invited.statusCode).toBe(200);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, password, browser };
}

describe('taking a subuser’s access away, on a real daemon', { timeout: 60_000 }, () => {
  it('runs on a node whose daemon was started from its configuration document', { timeout: 120_000 }, setUp);

  it('narrowing the permissions closes the open console and refuses the signed URLs held; new ones carry what is left', async () => {
    const { user, browser } = await friend(['control.console', 'file.read-content']);
    const first = await openConsole(browser);
    expect(first.permissions).toEqual(['control.console', 'file.read-content', 'websocket.connect']);
    const heldUrl = await downloadUrl(browser);

    const narrowed = await owner.post(`${base()}/users/${user.uuid}`, { permissions: ['file.read-content'] });
    expect(narrowed.statusCode).toBe(200);
    // Denied before the panel answered: the socket is already going.
    expect(await revokedWithin(first.socket, 5000)).toBe(true);
    expect((await fetch(heldUrl)).status).toBe(403);

    await nextSecond();
    const second = await openConsole(browser);
    expect(second.permissions).toEqual(['file.read-content', 'websocket.connect']);
    const fresh = await fetch(await downloadUrl(browser));
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe('shared note');
    // A socket of someone else on the same server stays open.
    const own = await openConsole(owner);
    await owner.post(`${base()}/users/${user.uuid}`, { permissions: ['file.read-content', 'file.read'] });
    expect(await revokedWithin(second.socket, 5000)).toBe(true);
    expect(await revokedWithin(own.socket, 500)).toBe(false);
  });

  it('removing the subuser closes their console and SFTP session, refuses their URLs, and the panel answers 404', async () => {
    const { user, password, browser } = await friend(['file.read-content', 'file.read', 'file.sftp']);
    const { socket } = await openConsole(browser);
    const heldUrl = await downloadUrl(browser);
    const session = await openSftp(sftpPort, { username: `${user.username}.${identifier}`, password });
    clients.push(session);
    expect(await call(session.sftp, 'realpath', '.')).toBe('/');

    const removed = await browser.send('DELETE', `${base()}/users/${user.uuid}`);
    expect(removed.statusCode).toBe(403);
    expect((await owner.send('DELETE', `${base()}/users/${user.uuid}`)).statusCode).toBe(204);
    expect(await revokedWithin(socket, 5000)).toBe(true);
    expect((await fetch(heldUrl)).status).toBe(403);
    const sftpClosed = await Promise.race([
      session.closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
    ]);
    expect(sftpClosed).toBe(true);
    for (const url of [base(), `${base()}/websocket`, `${base()}/files/download?file=%2Fnote.txt`]) {
      expect((await browser.get(url)).statusCode, url).toBe(404);
    }
  });
});
