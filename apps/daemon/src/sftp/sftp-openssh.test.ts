import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from './ed25519-key';
import { opensshAvailable, runSftpBatch } from './testing/openssh-sftp';
import { type SftpStand, startSftpStand } from './testing/sftp-stand';

/**
 * OpenSSH's own `sftp` client in batch mode, as a user would run it with the address and username of the
 * Settings page, against a server with a 4 MiB disk limit.
 */
const LIMIT = 4 * 1024 * 1024;
let stand: SftpStand;
let local: string;
const key = generateEd25519KeyPair();
const alice = { uuid: randomUUID(), password: "it's-alice", keys: [key.public], permissions: ['*'] };
const username = () => `alice.${stand.server.id}`;
const onDisk = (relative: string) => path.join(stand.server.root, relative);
const available = await opensshAvailable();

beforeAll(async () => {
  stand = await startSftpStand({ diskMb: LIMIT / 1024 / 1024 });
  stand.accounts.set('alice', alice);
  local = await fs.mkdtemp(path.join(os.tmpdir(), 'aerie-openssh-local-'));
});
afterAll(async () => {
  await stand?.close();
  await fs.rm(local, { recursive: true, force: true });
});

describe.skipIf(!available && process.env.CI !== 'true')('OpenSSH sftp -b', { timeout: 60_000 }, () => {
  it('logs in by key and manages files: upload, download, rename, mkdir, chmod, link, delete', async () => {
    await fs.writeFile(path.join(local, 'motd.txt'), 'Hello from OpenSSH\n');
    const outcome = await runSftpBatch({
      port: stand.port,
      username: username(),
      privateKey: key.private,
      cwd: local,
      commands: [
        'mkdir configs',
        'put motd.txt configs/motd.txt',
        'rename configs/motd.txt configs/welcome.txt',
        'chmod 600 configs/welcome.txt',
        'ln -s welcome.txt configs/link',
        'get configs/welcome.txt back.txt',
        'ls -l configs',
        'mkdir trash',
        'rmdir trash',
        'put motd.txt gone.txt',
        'rm gone.txt',
      ],
    });
    expect(outcome.output).not.toMatch(/denied|Failure|Couldn't/i);
    expect(outcome.code).toBe(0);
    expect(await fs.readFile(onDisk('configs/welcome.txt'), 'utf8')).toBe('Hello from OpenSSH\n');
    expect((await fs.stat(onDisk('configs/welcome.txt'))).mode & 0o777).toBe(0o600);
    expect(await fs.readlink(onDisk('configs/link'))).toBe('welcome.txt');
    expect(await fs.readFile(path.join(local, 'back.txt'), 'utf8')).toBe('Hello from OpenSSH\n');
    expect(outcome.output).toMatch(/-rw------- +1 container +container +19 .* welcome\.txt/);
    await expect(fs.stat(onDisk('trash'))).rejects.toThrow();
    await expect(fs.stat(onDisk('gone.txt'))).rejects.toThrow();
  });

  it('logs in by password, and refuses a wrong one', async () => {
    const good = await runSftpBatch({
      port: stand.port,
      username: username(),
      password: alice.password,
      commands: ['pwd'],
    });
    expect(good.output).toContain('Remote working directory: /');
    expect(good.code).toBe(0);
    const bad = await runSftpBatch({
      port: stand.port,
      username: username(),
      password: 'wrong',
      commands: ['pwd'],
    });
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/Permission denied|Connection closed/);
  });

  it('never leaves the root: .., absolute paths, links pointing out', async () => {
    const canary = path.join(path.dirname(path.dirname(stand.server.root)), 'openssh-canary.txt');
    await fs.writeFile(canary, 'host');
    await fs.writeFile(path.join(local, 'x.txt'), 'x');
    const outcome = await runSftpBatch({
      port: stand.port,
      username: username(),
      privateKey: key.private,
      cwd: local,
      commands: [
        '-cd ..',
        '-get ../../openssh-canary.txt stolen.txt',
        `-get ${canary} stolen2.txt`,
        '-put x.txt ../../escaped.txt',
        `-ln -s ${canary} evil`,
        '-ln -s ../../openssh-canary.txt evil2',
        'pwd',
      ],
    });
    expect(outcome.output).toContain('Remote working directory: /');
    await expect(fs.stat(path.join(local, 'stolen.txt'))).rejects.toThrow();
    await expect(fs.stat(path.join(local, 'stolen2.txt'))).rejects.toThrow();
    await expect(
      fs.stat(path.join(path.dirname(path.dirname(stand.server.root)), 'escaped.txt')),
    ).rejects.toThrow();
    await expect(fs.lstat(onDisk('evil'))).rejects.toThrow();
    await expect(fs.lstat(onDisk('evil2'))).rejects.toThrow();
    expect(await fs.readFile(canary, 'utf8')).toBe('host');
  });

  it('stops an upload past the disk limit mid-transfer and leaves the disk under the limit', async () => {
    const big = path.join(local, 'big.bin');
    await fs.writeFile(big, randomBytes(LIMIT + 2 * 1024 * 1024));
    const outcome = await runSftpBatch({
      port: stand.port,
      username: username(),
      privateKey: key.private,
      cwd: local,
      commands: ['put big.bin big.bin'],
    });
    expect(outcome.code).not.toBe(0);
    expect(outcome.output).toMatch(/write remote "\/big\.bin": Failure/);
    const landed = (await fs.stat(onDisk('big.bin'))).size;
    expect(landed).toBeGreaterThan(0);
    expect(landed).toBeLessThanOrEqual(LIMIT);
    const server = stand.daemon.manager.get(stand.server.uuid);
    expect(await server?.countDisk()).toBeLessThanOrEqual(LIMIT);
  });
});
