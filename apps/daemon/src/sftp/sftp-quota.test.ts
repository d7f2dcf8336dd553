import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openSftp, type SftpStand, startSftpStand } from './testing/sftp-stand';

/**
 * The disk limit holds on every byte written over SFTP (CVE-2026-61617: Wings checked only at open): an upload
 * past it fails mid-transfer, what landed stays under the limit, and parallel uploads cannot pass it together.
 */
const LIMIT = 3 * 1024 * 1024;
let stand: SftpStand;
let local: string;
const alice = { uuid: randomUUID(), password: 'alice-pw', keys: [], permissions: ['*'] };
const login = () => openSftp(stand.port, { username: `alice.${stand.server.id}`, password: 'alice-pw' });
const used = async () => (await stand.daemon.manager.get(stand.server.uuid)?.countDisk()) ?? -1;

beforeAll(async () => {
  stand = await startSftpStand({ diskMb: LIMIT / 1024 / 1024 });
  stand.accounts.set('alice', alice);
  local = await fs.mkdtemp(path.join(os.tmpdir(), 'aerie-sftp-quota-'));
});
afterAll(async () => {
  await stand?.close();
  await fs.rm(local, { recursive: true, force: true });
});

describe('the disk limit over SFTP', () => {
  it('fails an upload mid-transfer with the quota text and keeps the disk under the limit', async () => {
    const big = path.join(local, 'big.bin');
    await fs.writeFile(big, randomBytes(LIMIT + 1024 * 1024));
    const client = await login();
    const error = await call(client.sftp, 'fastPut', big, '/big.bin').catch((e: Error) => e);
    expect(String(error)).toMatch(/Quota exceeded/);
    const landed = (await fs.stat(path.join(stand.server.root, 'big.bin'))).size;
    expect(landed).toBeGreaterThan(LIMIT / 2);
    expect(landed).toBeLessThanOrEqual(LIMIT);
    expect(await used()).toBeLessThanOrEqual(LIMIT);
    // Deleting frees the space at once: a small upload fits again.
    await call(client.sftp, 'unlink', '/big.bin');
    await fs.writeFile(path.join(local, 'small.bin'), randomBytes(1024));
    await call(client.sftp, 'fastPut', path.join(local, 'small.bin'), '/small.bin');
    client.end();
  });

  it('lets parallel uploads of several sessions together never pass the limit', async () => {
    const part = path.join(local, 'part.bin');
    await fs.writeFile(part, randomBytes(1024 * 1024 + 512 * 1024));
    const clients = await Promise.all([login(), login(), login()]);
    const outcomes = await Promise.all(
      clients.map((client, i) =>
        call(client.sftp, 'fastPut', part, `/part-${i}.bin`).then(
          () => 'ok',
          () => 'quota',
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'ok').length).toBeLessThanOrEqual(1);
    expect(await used()).toBeLessThanOrEqual(LIMIT);
    for (const client of clients) client.end();
  });
});
