import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { createServerOnNode, startRealNode } from '@aerie/panel/test/real-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * End to end with a real `aerie daemon`: a backup started from the panel is made by the node, reported back
 * (checksum, size), downloaded through the node's one-time link, restored over changed files, and deleted.
 */

let t: TestApp;
let panelUrl: string;
let directory: string;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  t = await buildTestApp({ env: { BACKUP_THROTTLE_PERIOD: '0' } });
  panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-backup-node-'));
});
afterAll(async () => {
  daemon?.process.kill('SIGINT');
  await daemon?.exited;
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

describe('backups on a real node', () => {
  it('are made, reported, downloaded, restored and deleted', { timeout: 120_000 }, async () => {
    const node = await startRealNode(t, panelUrl, directory, 'Backup node');
    ({ daemon } = node);
    const { user: owner, password } = await createTestUser(t.ctx);
    const { id, identifier } = await createServerOnNode(t, node, {
      name: 'Backed up',
      ownerId: owner.id,
      skipScripts: true,
    });
    await t.db.updateTable('servers').set({ backup_limit: 2 }).where('id', '=', id).execute();
    const browser = new TestBrowser(t.app);
    await browser.signIn(owner.username, password);
    const base = `/api/client/servers/${identifier}`;
    const write = (file: string, text: string) =>
      browser.send('POST', `${base}/files/write?file=${encodeURIComponent(file)}`, text, {
        headers: { 'content-type': 'text/plain' },
      });
    expect((await write('/note.txt', 'before the backup')).statusCode).toBe(204);
    expect((await write('/skip.log', 'not in the backup')).statusCode).toBe(204);

    const created = await browser.post(`${base}/backups`, { name: 'First', ignored: '*.log' });
    expect(created.statusCode, created.body).toBe(200);
    const { uuid } = created.json().attributes;
    await expect
      .poll(async () => (await browser.get(`${base}/backups/${uuid}`)).json().attributes.completed_at, {
        timeout: 60_000,
        interval: 250,
      })
      .not.toBeNull();
    const backup = (await browser.get(`${base}/backups/${uuid}`)).json().attributes;
    expect(backup).toMatchObject({ is_successful: true, ignored_files: ['*.log'] });
    expect(backup.checksum).toMatch(/^sha1:[0-9a-f]{40}$/);
    expect(backup.bytes).toBeGreaterThan(0);

    const link = (await browser.get(`${base}/backups/${uuid}/download`)).json().attributes.url as string;
    const downloaded = await fetch(link);
    expect(downloaded.status).toBe(200);
    const tar = gunzipSync(Buffer.from(await downloaded.arrayBuffer())).toString('latin1');
    expect(tar).toContain('note.txt');
    expect(tar).toContain('before the backup');
    expect(tar).not.toContain('skip.log');
    // One-time: the same link again is refused.
    expect((await fetch(link)).status).not.toBe(200);

    expect((await write('/note.txt', 'after the backup')).statusCode).toBe(204);
    const restore = await browser.post(`${base}/backups/${uuid}/restore`, { truncate: true });
    expect(restore.statusCode, restore.body).toBe(204);
    await expect
      .poll(
        async () =>
          (await t.db.selectFrom('servers').select('status').where('id', '=', id).executeTakeFirstOrThrow())
            .status,
        { timeout: 60_000, interval: 250 },
      )
      .toBeNull();
    const contents = await browser.get(`${base}/files/contents?file=%2Fnote.txt`);
    expect(contents.body).toBe('before the backup');
    // Truncated first: the ignored file is gone.
    expect((await browser.get(`${base}/files/contents?file=%2Fskip.log`)).statusCode).toBe(404);

    expect((await browser.send('DELETE', `${base}/backups/${uuid}`)).statusCode).toBe(204);
    expect((await browser.get(`${base}/backups`)).json().data).toEqual([]);
  });
});
