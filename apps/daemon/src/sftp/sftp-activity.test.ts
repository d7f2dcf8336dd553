import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ActivityOutbox } from '@aerie/daemon/activity/activity-outbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  openSftp,
  type SftpClient,
  type SftpStand,
  startSftpStand,
  statusOf,
} from './testing/sftp-stand';

/**
 * What the SFTP server reports to the activity outbox, through ssh2's real client against a real daemon: the login,
 * each file made or changed once per connection when closed (not per packet), folders made, renames with from/to,
 * deletions; nothing for what failed.
 */
let stand: SftpStand;
let outbox: ActivityOutbox;
let directory: string;
const owner = { uuid: randomUUID(), password: 'owner-password' };
const reader = { uuid: randomUUID(), password: 'reader-password' };
const clients: SftpClient[] = [];

const login = async (name: string, password: string) => {
  const client = await openSftp(stand.port, { username: `${name}.${stand.server.id}`, password });
  clients.push(client);
  return client;
};
const reported = () =>
  outbox.pending.map(({ row }) => ({ user: row.user, event: row.event, files: row.metadata?.files }));

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'aerie-sftp-activity-'));
  outbox = await ActivityOutbox.open({ file: path.join(directory, 'outbox.jsonl') });
  stand = await startSftpStand({ activity: outbox });
  stand.accounts.set('owner', { ...owner, keys: [], permissions: ['*'] });
  stand.accounts.set('reader', { ...reader, keys: [], permissions: ['file.read', 'file.read-content'] });
});
afterAll(async () => {
  for (const client of clients) client.end();
  await stand?.close();
  await fs.rm(directory, { recursive: true, force: true });
});
beforeEach(async () => {
  await outbox.remove(new Set(outbox.pending.map((entry) => entry.seq)));
});

describe('SFTP activity', () => {
  it('reports the login with the user, the server and the client’s address', async () => {
    await login('owner', owner.password);
    expect(outbox.pending.map(({ row }) => row)).toEqual([
      {
        user: owner.uuid,
        server: stand.server.uuid,
        event: 'server:sftp.login',
        metadata: {},
        ip: '127.0.0.1',
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
  });

  it('reports a file made once and a file changed once per connection, however many writes and opens', async () => {
    const client = await login('owner', owner.password);
    const local = path.join(directory, 'big.bin');
    await fs.writeFile(local, randomBytes(3 * 1024 * 1024));
    // Many WRITE packets, one file.
    await call(client.sftp, 'fastPut', local, '/world/../region.bin');
    for (let i = 0; i < 3; i++) {
      const handle = await call<Buffer>(client.sftp, 'open', '/region.bin', 'r+');
      await call(client.sftp, 'write', handle, Buffer.from('x'), 0, 1, i);
      await call(client.sftp, 'close', handle);
    }
    // Opened only to read: nothing to report.
    const read = await call<Buffer>(client.sftp, 'open', '/region.bin', 'r');
    await call(client.sftp, 'close', read);
    expect(reported().slice(1)).toEqual([
      { user: owner.uuid, event: 'server:sftp.create', files: ['/region.bin'] },
      { user: owner.uuid, event: 'server:sftp.write', files: ['/region.bin'] },
    ]);
  });

  it('reports a file left open when the connection ends', async () => {
    const client = await login('owner', owner.password);
    const handle = await call<Buffer>(client.sftp, 'open', '/unclosed.txt', 'w');
    await call(client.sftp, 'write', handle, Buffer.from('hi'), 0, 2, 0);
    client.end();
    await client.closed;
    await expect
      .poll(() => reported().map((entry) => entry.event))
      .toEqual(['server:sftp.login', 'server:sftp.create']);
  });

  it('reports folders made, renames with from and to, and deletions', async () => {
    const client = await login('owner', owner.password);
    await call(client.sftp, 'mkdir', '/plugins');
    await fs.writeFile(path.join(stand.server.root, 'plugins', 'a.yml'), 'a: 1\n');
    await call(client.sftp, 'rename', '/plugins/a.yml', '/plugins/b.yml');
    await call(client.sftp, 'unlink', '/plugins/b.yml');
    await call(client.sftp, 'rmdir', '/plugins');
    expect(reported().slice(1)).toEqual([
      { user: owner.uuid, event: 'server:sftp.create-directory', files: ['/plugins'] },
      {
        user: owner.uuid,
        event: 'server:sftp.rename',
        files: [{ from: '/plugins/a.yml', to: '/plugins/b.yml' }],
      },
      { user: owner.uuid, event: 'server:sftp.delete', files: ['/plugins/b.yml'] },
      { user: owner.uuid, event: 'server:sftp.delete', files: ['/plugins'] },
    ]);
  });

  it('reports nothing for operations that failed', async () => {
    await fs.writeFile(path.join(stand.server.root, 'kept.txt'), 'kept\n');
    const client = await login('reader', reader.password);
    expect(await statusOf(call(client.sftp, 'open', '/new.txt', 'w'))).toBe(3);
    expect(await statusOf(call(client.sftp, 'mkdir', '/dir'))).toBe(3);
    expect(await statusOf(call(client.sftp, 'rename', '/kept.txt', '/moved.txt'))).toBe(3);
    expect(await statusOf(call(client.sftp, 'unlink', '/kept.txt'))).toBe(3);
    const owned = await login('owner', owner.password);
    expect(await statusOf(call(owned.sftp, 'unlink', '/missing.txt'))).toBe(2);
    expect(reported()).toEqual([
      { user: reader.uuid, event: 'server:sftp.login', files: undefined },
      { user: owner.uuid, event: 'server:sftp.login', files: undefined },
    ]);
  });
});
