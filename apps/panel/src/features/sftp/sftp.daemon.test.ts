import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateEd25519KeyPair } from '@aerie/daemon/sftp/ed25519-key';
import { opensshAvailable, runSftpBatch } from '@aerie/daemon/sftp/testing/openssh-sftp';
import { call, connectClient, openSftp, type SftpClient } from '@aerie/daemon/sftp/testing/sftp-stand';
import type { DaemonProcess } from '@aerie/daemon/testing/daemon-process';
import type { User } from '@aerie/panel/features/users/user';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { type ApplicationCall, createServerOnNode, startRealNode } from '@aerie/panel/test/real-node';
import { addSubuser, type ServerRow } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SFTP end to end: this panel, a real `aerie daemon` started from its node's configuration document, and real
 * SFTP clients (ssh2's, OpenSSH's `sftp -b`). Logins are decided by the panel; revocations made on the panel
 * (a password change, a subuser's access taken away, a suspension) end live sessions at once.
 */
let t: TestApp;
let directory: string;
let daemon: DaemonProcess | undefined;
let sftpPort: number;
let server: ServerRow;
let serverId: number;
let owner: Awaited<ReturnType<typeof person>>;
let api: ApplicationCall;
const clients: SftpClient[] = [];

/** A user of the panel with a known password, signed in to the client API. */
async function person(
  permissions?: string[],
): Promise<{ user: User; password: string; browser: TestBrowser }> {
  const { user, password } = await createTestUser(t.ctx);
  if (permissions) await addSubuser(t.ctx, server, user, permissions);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, password, browser };
}

const username = (user: User) => `${user.username}.${server.uuid_short}`;
const login = async (user: User, password: string) => {
  const client = await openSftp(sftpPort, { username: username(user), password });
  clients.push(client);
  return client;
};
const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => 'logged in',
    () => 'refused',
  );
const closesWithin = (client: SftpClient, ms: number) =>
  Promise.race([client.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

beforeAll(async () => {
  t = await buildTestApp();
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-sftp-e2e-'));
});

/** A node made through the Application API, its daemon started from its document, a server created on it. */
async function setUp(): Promise<void> {
  const panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const node = await startRealNode(t, panelUrl, directory, 'SFTP node');
  ({ api, sftpPort, daemon } = node);
  expect(node.configuration.aerie.env.DAEMON_SFTP_PORT).toBe(String(sftpPort));
  expect(daemon.output()).toContain(`Aerie SFTP server listening on 127.0.0.1:${sftpPort}`);
  owner = await person();
  serverId = (
    await createServerOnNode(t, node, { name: 'Files over SFTP', ownerId: owner.user.id, skipScripts: true })
  ).id;
  server = await t.db.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirstOrThrow();
}

afterAll(async () => {
  for (const client of clients) client.end();
  daemon?.process.kill('SIGINT');
  await daemon?.exited;
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

describe('SFTP through the panel and a real daemon', { timeout: 60_000 }, () => {
  it('runs on a node whose daemon was started from its configuration document', { timeout: 120_000 }, setUp);

  it('lets a subuser with file.sftp in with their panel password, refuses one without', async () => {
    const allowed = await person(['file.sftp', 'file.read', 'file.create']);
    const client = await login(allowed.user, allowed.password);
    const handle = await call<Buffer>(client.sftp, 'open', '/hello.txt', 'w');
    await call(client.sftp, 'write', handle, Buffer.from('hi'), 0, 2, 0);
    await call(client.sftp, 'close', handle);
    expect(
      (await call<{ filename: string }[]>(client.sftp, 'readdir', '/')).map((e) => e.filename),
    ).toContain('hello.txt');
    // file.delete is not theirs.
    expect(await call(client.sftp, 'unlink', '/hello.txt').catch((e: { code: number }) => e.code)).toBe(3);

    const without = await person(['file.read', 'file.update']);
    expect(
      await refused(
        connectClient(sftpPort, { username: username(without.user), password: without.password }),
      ),
    ).toBe('refused');
  });

  it('lets the owner in with a key added to their account, with OpenSSH’s sftp', async () => {
    if (!(await opensshAvailable()) && process.env.CI !== 'true') return;
    const pair = generateEd25519KeyPair();
    const added = await owner.browser.post('/api/client/account/ssh-keys', {
      name: 'Laptop',
      public_key: pair.public,
    });
    expect(added.statusCode).toBe(200);
    const local = await mkdtemp(path.join(tmpdir(), 'aerie-sftp-e2e-local-'));
    try {
      await writeFile(path.join(local, 'up.txt'), 'uploaded with OpenSSH\n');
      const outcome = await runSftpBatch({
        port: sftpPort,
        username: username(owner.user),
        privateKey: pair.private,
        cwd: local,
        commands: ['put up.txt configs/up.txt', 'get configs/up.txt down.txt', 'ls configs'],
      });
      expect(outcome.output).not.toMatch(/denied|Failure/i);
      expect(outcome.code).toBe(0);
      expect(await readFile(path.join(local, 'down.txt'), 'utf8')).toBe('uploaded with OpenSSH\n');
    } finally {
      await rm(local, { recursive: true, force: true });
    }
  });

  it("cuts a subuser's live session when their access to the server is taken away", async () => {
    const subuser = await person(['file.sftp', 'file.read']);
    const other = await person(['file.sftp', 'file.read']);
    const session = await login(subuser.user, subuser.password);
    const bystander = await login(other.user, other.password);
    await t.db
      .deleteFrom('subusers')
      .where('user_id', '=', subuser.user.id)
      .where('server_id', '=', server.id)
      .execute();
    // What removing a subuser (or narrowing their permissions) tells the node.
    await t.ctx.revocation.revokeUserOnServer({
      server: { uuid: server.uuid, nodeId: server.node_id },
      user: { id: subuser.user.id, uuid: subuser.user.uuid },
    });
    expect(await closesWithin(session, 5000)).toBe(true);
    expect(await call(bystander.sftp, 'realpath', '.')).toBe('/');
    expect(
      await refused(
        connectClient(sftpPort, { username: username(subuser.user), password: subuser.password }),
      ),
    ).toBe('refused');
  });

  it('cuts a live session when the user changes their password; only the new one logs in', async () => {
    const subuser = await person(['file.sftp', 'file.read']);
    const session = await login(subuser.user, subuser.password);
    const changed = await subuser.browser.send('PUT', '/api/client/account/password', {
      current_password: subuser.password,
      password: 'a-brand-new-password',
      password_confirmation: 'a-brand-new-password',
    });
    expect(changed.statusCode).toBe(204);
    expect(await closesWithin(session, 5000)).toBe(true);
    expect(
      await refused(
        connectClient(sftpPort, { username: username(subuser.user), password: subuser.password }),
      ),
    ).toBe('refused');
    const again = await login(subuser.user, 'a-brand-new-password');
    expect(await call(again.sftp, 'realpath', '.')).toBe('/');
  });

  it('refuses even the right password once the panel throttles failed logins', async () => {
    const subuser = await person(['file.sftp']);
    for (let i = 0; i < 5; i++) {
      expect(
        await refused(connectClient(sftpPort, { username: username(subuser.user), password: `wrong-${i}` })),
      ).toBe('refused');
    }
    expect(
      await refused(
        connectClient(sftpPort, { username: username(subuser.user), password: subuser.password }),
      ),
    ).toBe('refused');
  });

  it('cuts every session when the server is suspended, and refuses new ones', async () => {
    const subuser = await person(['file.sftp', 'file.read']);
    const session = await login(subuser.user, subuser.password);
    expect((await api('POST', `servers/${serverId}/suspend`)).status).toBe(204);
    expect(await closesWithin(session, 10_000)).toBe(true);
    expect(
      await refused(
        connectClient(sftpPort, { username: username(subuser.user), password: subuser.password }),
      ),
    ).toBe('refused');
  });
});
