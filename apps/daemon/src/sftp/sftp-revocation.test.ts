import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, openSftp, type SftpClient, type SftpStand, startSftpStand } from './testing/sftp-stand';

/**
 * No session outlives its authority (CVE-2025-68954, GHSA-hr7j-63v7-vj7g): the panel's denials, a suspension, a
 * reinstall and a deletion close the sessions they concern at once, and only those.
 */
let stand: SftpStand;
const open: SftpClient[] = [];
const alice = { uuid: randomUUID(), password: 'alice-pw', keys: [], permissions: ['*'] };
const bob = { uuid: randomUUID(), password: 'bob-pw', keys: [], permissions: ['file.sftp', 'file.read'] };

async function login(name: 'alice' | 'bob'): Promise<SftpClient> {
  const account = name === 'alice' ? alice : bob;
  const client = await openSftp(stand.port, {
    username: `${name}.${stand.server.id}`,
    password: account.password,
  });
  open.push(client);
  return client;
}

/** Resolves true when the connection closes within `ms`, false otherwise. */
const closesWithin = (client: SftpClient, ms: number) =>
  Promise.race([client.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

beforeEach(async () => {
  stand = await startSftpStand();
  stand.accounts.set('alice', alice);
  stand.accounts.set('bob', bob);
});
afterEach(async () => {
  for (const client of open.splice(0)) client.end();
  await stand.close();
});

describe('revocation', () => {
  it('closes the user named by ws/deny (its jti) before the panel hears 204, and nobody else', async () => {
    const aliceSession = await login('alice');
    const bobSession = await login('bob');
    const denied = await stand.daemon.request('POST', `/api/servers/${stand.server.uuid}/ws/deny`, {
      body: { jtis: [stand.jtiOf(alice.uuid, stand.server.uuid)] },
    });
    expect(denied.status).toBe(204);
    expect(stand.sftp.registry.sessionsOf(stand.server.uuid).map((s) => s.authority.userUuid)).toEqual([
      bob.uuid,
    ]);
    expect(await closesWithin(aliceSession, 5000)).toBe(true);
    // Bob's session still works.
    expect((await call<unknown[]>(bobSession.sftp, 'readdir', '/')).length).toBeGreaterThanOrEqual(0);
    // Alice may log in again: her new login is after the deny.
    const again = await login('alice');
    expect(await call(again.sftp, 'realpath', '.')).toBe('/');
  });

  it('closes by user uuid, and on every server for POST /api/deny (password change, account deletion)', async () => {
    const first = await login('bob');
    await stand.daemon.request('POST', `/api/servers/${stand.server.uuid}/ws/deny`, {
      body: { user_uuids: [bob.uuid] },
    });
    expect(await closesWithin(first, 5000)).toBe(true);
    const second = await login('bob');
    const aliceSession = await login('alice');
    const denied = await stand.daemon.request('POST', '/api/deny', { body: { user_uuids: [bob.uuid] } });
    expect(denied.status).toBe(204);
    expect(await closesWithin(second, 5000)).toBe(true);
    expect(await closesWithin(aliceSession, 300)).toBe(false);
  });

  it('takes the permissions the panel gives at the next login after a narrowing, nothing cached', async () => {
    const narrowed = { ...bob, permissions: ['file.sftp', 'file.read', 'file.create'] };
    stand.accounts.set('bob', narrowed);
    const before = await login('bob');
    const handle = await call<Buffer>(before.sftp, 'open', '/made-by-bob.txt', 'w');
    await call(before.sftp, 'close', handle);
    narrowed.permissions = ['file.sftp', 'file.read'];
    await stand.daemon.request('POST', `/api/servers/${stand.server.uuid}/ws/deny`, {
      body: { jtis: [stand.jtiOf(bob.uuid, stand.server.uuid)], user_uuids: [bob.uuid] },
    });
    expect(await closesWithin(before, 5000)).toBe(true);
    const after = await login('bob');
    const refused = await call(after.sftp, 'open', '/second.txt', 'w').catch(
      (error: { code: number }) => error.code,
    );
    expect(refused).toBe(3);
  });

  it('refuses a login the panel granted before a deny that arrived while it was answered', async () => {
    let release: () => void = () => {};
    const answered = stand.panel.sftpAuth;
    stand.panel.sftpAuth = async (body) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return answered(body);
    };
    const attempt = login('alice').then(
      () => 'logged in',
      () => 'refused',
    );
    await expect.poll(() => stand.panel.sftpLogins.length).toBe(1);
    await stand.daemon.request('POST', '/api/deny', { body: { user_uuids: [alice.uuid] } });
    release();
    expect(await attempt).toBe('refused');
  });

  it('closes every session of a server when a sync suspends it, and refuses new ones', async () => {
    const aliceSession = await login('alice');
    const configuration = stand.panel.servers.get(stand.server.uuid);
    if (configuration) configuration.settings.suspended = true;
    expect((await stand.daemon.request('POST', `/api/servers/${stand.server.uuid}/sync`)).status).toBe(204);
    expect(await closesWithin(aliceSession, 5000)).toBe(true);
    await expect(login('alice')).rejects.toThrow(/authentication methods failed/);
  });

  it('closes the sessions of a server that reinstalls or is deleted', async () => {
    const before = await login('alice');
    expect((await stand.daemon.request('POST', `/api/servers/${stand.server.uuid}/reinstall`)).status).toBe(
      202,
    );
    expect(await closesWithin(before, 5000)).toBe(true);
    await expect.poll(() => stand.daemon.manager.get(stand.server.uuid)?.isInstalling).toBe(false);
    const after = await login('alice');
    expect((await stand.daemon.request('DELETE', `/api/servers/${stand.server.uuid}`)).status).toBe(204);
    expect(await closesWithin(after, 5000)).toBe(true);
    expect(stand.sftp.registry.count).toBe(0);
  });
});
