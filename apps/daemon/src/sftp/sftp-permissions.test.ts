import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  openSftp,
  type SftpClient,
  type SftpStand,
  startSftpStand,
  statusOf,
} from './testing/sftp-stand';

/** Each SFTP operation needs the permission of wings.md §8's table; a subuser holding another one is refused. */
const { STATUS_CODE } = ssh2.utils.sftp;
const DENIED = STATUS_CODE.PERMISSION_DENIED;
let stand: SftpStand;
const clients: SftpClient[] = [];
const onDisk = (relative: string) => path.join(stand.server.root, relative);

async function as(permissions: string[]): Promise<SftpClient> {
  const name = `sub${clients.length}`;
  stand.accounts.set(name, { uuid: randomUUID(), password: 'pw', keys: [], permissions });
  const client = await openSftp(stand.port, { username: `${name}.${stand.server.id}`, password: 'pw' });
  clients.push(client);
  return client;
}

/** Writes a whole file through an SFTP handle. */
async function put(client: SftpClient, file: string, text: string, flags = 'w'): Promise<void> {
  const handle = await call<Buffer>(client.sftp, 'open', file, flags);
  const data = Buffer.from(text);
  await call(client.sftp, 'write', handle, data, 0, data.length, 0);
  await call(client.sftp, 'close', handle);
}

beforeAll(async () => {
  stand = await startSftpStand();
});
afterAll(async () => {
  for (const client of clients) client.end();
  await stand?.close();
});
beforeEach(async () => {
  await fs.rm(stand.server.root, { recursive: true, force: true });
  await fs.mkdir(stand.server.root, { recursive: true });
  await fs.writeFile(onDisk('existing.txt'), 'original');
  await fs.mkdir(onDisk('folder'));
});

describe('per-operation permissions', () => {
  it('file.read lists and stats, but does not read contents or change anything', async () => {
    const { sftp } = await as(['file.sftp', 'file.read']);
    expect((await call<unknown[]>(sftp, 'readdir', '/')).length).toBe(2);
    expect(await statusOf(call(sftp, 'stat', '/existing.txt'))).toBe('ok');
    expect(await statusOf(call(sftp, 'open', '/existing.txt', 'r'))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'open', '/new.txt', 'w'))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'mkdir', '/made'))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'unlink', '/existing.txt'))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'rename', '/existing.txt', '/moved.txt'))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'chmod', '/existing.txt', 0o600))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'symlink', 'existing.txt', '/l'))).toBe(DENIED);
    expect(await fs.readdir(stand.server.root)).toEqual(['existing.txt', 'folder']);
  });

  it('file.read-content reads contents without listing', async () => {
    const { sftp } = await as(['file.sftp', 'file.read-content']);
    const handle = await call<Buffer>(sftp, 'open', '/existing.txt', 'r');
    const buffer = Buffer.alloc(8);
    expect(await call(sftp, 'read', handle, buffer, 0, 8, 0)).toBe(8);
    expect(buffer.toString()).toBe('original');
    await call(sftp, 'close', handle);
    expect(await statusOf(call(sftp, 'readdir', '/'))).toBe(DENIED);
    expect(await statusOf(call(sftp, 'stat', '/existing.txt'))).toBe(DENIED);
  });

  it('file.create makes new files, folders and links, but does not overwrite, rename or delete', async () => {
    const client = await as(['file.sftp', 'file.create']);
    await put(client, '/fresh.txt', 'new');
    expect(await fs.readFile(onDisk('fresh.txt'), 'utf8')).toBe('new');
    await call(client.sftp, 'mkdir', '/made');
    await call(client.sftp, 'symlink', 'fresh.txt', '/link');
    expect(await statusOf(put(client, '/existing.txt', 'overwritten'))).toBe(DENIED);
    expect(await statusOf(call(client.sftp, 'rename', '/fresh.txt', '/renamed.txt'))).toBe(DENIED);
    expect(await statusOf(call(client.sftp, 'unlink', '/fresh.txt'))).toBe(DENIED);
    expect(await fs.readFile(onDisk('existing.txt'), 'utf8')).toBe('original');
  });

  it('file.update overwrites, renames, chmods and truncates existing files, but creates nothing', async () => {
    const client = await as(['file.sftp', 'file.update']);
    await put(client, '/existing.txt', 'changed!');
    expect(await fs.readFile(onDisk('existing.txt'), 'utf8')).toBe('changed!');
    await call(client.sftp, 'rename', '/existing.txt', '/renamed.txt');
    await call(client.sftp, 'chmod', '/renamed.txt', 0o640);
    expect((await fs.stat(onDisk('renamed.txt'))).mode & 0o777).toBe(0o640);
    await call(client.sftp, 'setstat', '/renamed.txt', { size: 3 });
    expect(await fs.readFile(onDisk('renamed.txt'), 'utf8')).toBe('cha');
    expect(await statusOf(put(client, '/brand-new.txt', 'x'))).toBe(DENIED);
    expect(await statusOf(call(client.sftp, 'mkdir', '/made'))).toBe(DENIED);
    expect(await statusOf(call(client.sftp, 'rmdir', '/folder'))).toBe(DENIED);
  });

  it('file.delete removes files and empty folders', async () => {
    const { sftp } = await as(['file.sftp', 'file.delete']);
    await call(sftp, 'unlink', '/existing.txt');
    await call(sftp, 'rmdir', '/folder');
    expect(await fs.readdir(stand.server.root)).toEqual([]);
    expect(await statusOf(call(sftp, 'mkdir', '/made'))).toBe(DENIED);
  });

  it('the wildcard grants every operation', async () => {
    const client = await as(['*']);
    await put(client, '/existing.txt', 'all');
    await call(client.sftp, 'unlink', '/existing.txt');
    await call(client.sftp, 'rmdir', '/folder');
    expect(await fs.readdir(stand.server.root)).toEqual([]);
  });
});
