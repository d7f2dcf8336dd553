import { readBool, readNullableDate } from '@aerie/panel/db/dialect';
import { toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { applicationRequest, createAdminWithKey } from '@aerie/panel/test/application-api';
import { createTestBackup } from '@aerie/panel/test/backup-factories';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import type { DaemonAnswer } from '@aerie/panel/test/daemon-stand-in';
import { createTestNode, createTestServer } from '@aerie/panel/test/server-factories';
import { serverScenarioWithDaemon, setServerState } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The daemon's side (`/api/remote/backups/*`): a node reports on its own servers' backups only (CVE-2026-26016);
 * the end of a backup and of a restore; bodies validated. Also: a deleted server takes its backups' archives and
 * rows with it, and a schedule's backup at the limit rotates the oldest out when BACKUP_ROTATE_OLDEST is on.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let otherNode: NodeRow;
let backupAnswer: DaemonAnswer;

const bearer = (node: NodeRow) => `Bearer ${node.daemon_token_id}.${t.ctx.secretBox.open(node.daemon_token)}`;
const remote = (method: 'GET' | 'POST', url: string, body?: unknown, node: NodeRow = s.node) =>
  t.app.inject({
    method,
    url: `/api/remote${url}`,
    headers: {
      authorization: bearer(node),
      accept: 'application/vnd.pterodactyl.v1+json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const rowOf = (uuid: string) =>
  t.db.selectFrom('backups').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
const status = async () =>
  (await t.db.selectFrom('servers').select('status').where('id', '=', s.server.id).executeTakeFirstOrThrow())
    .status;
const SHA1 = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
/** The server's activity log as its owner reads it: event and description properties, newest first. */
const ownersLog = async () => {
  const response = await s.owner.get(`/api/client/servers/${s.server.uuid_short}/activity`);
  expect(response.statusCode).toBe(200);
  return (
    response.json() as { data: { attributes: { event: string; properties: Record<string, unknown> } }[] }
  ).data.map(({ attributes }) => ({ event: attributes.event, name: attributes.properties.name }));
};

beforeAll(async () => {
  t = await buildTestApp({ env: { BACKUP_ROTATE_OLDEST: 'true' } });
  s = await serverScenarioWithDaemon(t, [], (call) =>
    call.path.includes('/backup') ? backupAnswer : undefined,
  );
  otherNode = await createTestNode(t.ctx);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  t.advanceClock(601_000);
  backupAnswer = { status: 204 };
  s.daemon.calls.length = 0;
  await t.db.deleteFrom('backups').execute();
  await t.db.deleteFrom('activity_logs').execute();
  await setServerState(t, s.server, s.node, {});
});

describe('POST /api/remote/backups/{backup}', () => {
  it('records a success: checksum sha1:<hex>, size, completion time, lock kept', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { state: 'running', isLocked: true });
    const response = await remote('POST', `/backups/${uuid}`, {
      successful: true,
      checksum: SHA1.toUpperCase(),
      checksum_type: 'sha1',
      size: 5_000_000_000,
      parts: null,
    });
    expect(response.statusCode).toBe(204);
    const row = await rowOf(uuid);
    expect(readBool(row.is_successful)).toBe(true);
    expect(readBool(row.is_locked)).toBe(true);
    expect(row.checksum).toBe(`sha1:${SHA1}`);
    expect(Number(row.bytes)).toBe(5_000_000_000);
    expect(readNullableDate(row.completed_at)?.getTime()).toBeLessThanOrEqual(t.ctx.clock().getTime());
    // Already successful: the node cannot report on it again.
    const again = await remote('POST', `/backups/${uuid}`, { successful: false });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0].detail).toBe(
      'Cannot update the status of a backup that is already marked as completed.',
    );
  });

  it('records a failure: no checksum or size, unlocked so it can be deleted', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { state: 'running', isLocked: true });
    const response = await remote('POST', `/backups/${uuid}`, {
      successful: false,
      checksum: SHA1,
      checksum_type: 'sha1',
      size: 12,
    });
    expect(response.statusCode).toBe(204);
    const row = await rowOf(uuid);
    expect(readBool(row.is_successful)).toBe(false);
    expect(readBool(row.is_locked)).toBe(false);
    expect(row.checksum).toBeNull();
    expect(Number(row.bytes)).toBe(0);
    expect(row.completed_at).not.toBeNull();
  });

  it('validates and bounds the body', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { state: 'running' });
    const cases: [unknown, string[]][] = [
      [{}, ['successful']],
      [{ successful: 'yes', checksum: 'zz', size: -1 }, ['successful', 'checksum', 'size']],
      [{ successful: true, checksum: 'a'.repeat(129), size: 1.5 }, ['checksum', 'size']],
      [{ successful: true, parts: [{ etag: '', part_number: 0 }] }, ['parts.0.etag', 'parts.0.part_number']],
      [
        {
          successful: true,
          parts: Array.from({ length: 10_001 }, (_, i) => ({ etag: 'e', part_number: 1 + (i % 9999) })),
        },
        ['parts'],
      ],
    ];
    for (const [body, fields] of cases) {
      const response = await remote('POST', `/backups/${uuid}`, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(
        response.json().errors.map((item: { meta: { source_field: string } }) => item.meta.source_field),
      ).toEqual(fields);
    }
    expect((await rowOf(uuid)).completed_at).toBeNull();
  });

  it('marks an S3 backup the node never asked upload URLs for as failed, whatever it reports', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { state: 'running', disk: 's3' });
    expect(
      (await remote('POST', `/backups/${uuid}`, { successful: true, checksum: SHA1, size: 3 })).statusCode,
    ).toBe(204);
    expect(readBool((await rowOf(uuid)).is_successful)).toBe(false);
  });
});

describe('GET /api/remote/backups/{backup}', () => {
  it('wants a positive size, a running backup and one on S3', async () => {
    const wings = await createTestBackup(t.ctx, s.server, { state: 'running' });
    for (const query of ['', '?size=0', '?size=-5', '?size=abc']) {
      const response = await remote('GET', `/backups/${wings.uuid}${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].detail).toBe('A non-empty "size" query parameter must be provided.');
    }
    const notS3 = await remote('GET', `/backups/${wings.uuid}?size=10`);
    expect(notS3.statusCode).toBe(400);
    expect(notS3.json().errors[0].detail).toBe(
      'The configured backup adapter is not an S3 compatible adapter.',
    );
    const done = await createTestBackup(t.ctx, s.server, { disk: 's3' });
    const conflict = await remote('GET', `/backups/${done.uuid}?size=10`);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().errors[0].detail).toBe('This backup is already in a completed state.');
  });
});

describe('POST /api/remote/backups/{backup}/restore', () => {
  it('clears restoring_backup (and no other status), success or not', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server);
    for (const successful of [true, false]) {
      await setServerState(t, s.server, s.node, { status: 'restoring_backup' });
      expect((await remote('POST', `/backups/${uuid}/restore`, { successful })).statusCode).toBe(204);
      expect(await status()).toBeNull();
    }
    await setServerState(t, s.server, s.node, { status: 'suspended' });
    expect((await remote('POST', `/backups/${uuid}/restore`, { successful: true })).statusCode).toBe(204);
    expect(await status()).toBe('suspended');
    expect((await remote('POST', `/backups/${uuid}/restore`, {})).statusCode).toBe(422);
  });
});

describe('what the node reports, in the server’s activity log', () => {
  it('logs a backup’s end (complete or failed) and a restore’s (complete or failed), with no actor', async () => {
    const done = await createTestBackup(t.ctx, s.server, { state: 'running', name: 'Nightly' });
    const broken = await createTestBackup(t.ctx, s.server, { state: 'running', name: 'Weekly' });
    await remote('POST', `/backups/${done.uuid}`, { successful: true, checksum: SHA1, size: 10 });
    await remote('POST', `/backups/${broken.uuid}`, { successful: false });
    await setServerState(t, s.server, s.node, { status: 'restoring_backup' });
    await remote('POST', `/backups/${done.uuid}/restore`, { successful: false });
    await setServerState(t, s.server, s.node, { status: 'restoring_backup' });
    await remote('POST', `/backups/${done.uuid}/restore`, { successful: true });
    expect(await ownersLog()).toEqual([
      { event: 'server:backup.restore-complete', name: 'Nightly' },
      { event: 'server:backup.restore-failed', name: 'Nightly' },
      { event: 'server:backup.fail', name: 'Weekly' },
      { event: 'server:backup.complete', name: 'Nightly' },
    ]);
  });
});

describe('POST /api/remote/servers/reset (the node’s daemon started again)', () => {
  it('fails the backups and the restore its last run died in, on its own servers only, and logs them', async () => {
    const running = await createTestBackup(t.ctx, s.server, { state: 'running', name: 'Nightly' });
    const finished = await createTestBackup(t.ctx, s.server, { name: 'Old' });
    const theirServer = await createTestServer(t.ctx, {
      owner: s.owner.user,
      node: otherNode,
      eggId: s.egg.id,
    });
    const theirs = await createTestBackup(t.ctx, theirServer, { state: 'running' });
    await setServerState(t, s.server, s.node, { status: 'restoring_backup' });
    // The restore the owner asked for (its entry names the backup).
    await t.db
      .insertInto('activity_logs')
      .values({
        batch: null,
        event: 'server:backup.restore',
        ip: '127.0.0.1',
        actor_id: s.owner.user.id,
        is_api: false,
        server_id: s.server.id,
        subject_user_id: null,
        properties: JSON.stringify({ name: 'Old', truncate: true }),
        timestamp: t.ctx.clock(),
      })
      .execute();

    expect((await remote('POST', '/servers/reset')).statusCode).toBe(204);

    // Shown failed (so it can be deleted and made again), never still "in progress".
    const failed = await rowOf(running.uuid);
    expect(readBool(failed.is_successful)).toBe(false);
    expect(failed.completed_at).not.toBeNull();
    expect(readBool((await rowOf(finished.uuid)).is_successful)).toBe(true);
    expect((await rowOf(theirs.uuid)).completed_at).toBeNull();
    expect(await status()).toBeNull();
    expect((await ownersLog()).slice(0, 2)).toEqual(
      expect.arrayContaining([
        { event: 'server:backup.fail', name: 'Nightly' },
        { event: 'server:backup.restore-failed', name: 'Old' },
      ]),
    );
    // A second reset finds nothing more to fail.
    expect((await remote('POST', '/servers/reset')).statusCode).toBe(204);
    expect(
      (await ownersLog()).filter((entry) => entry.event.endsWith('fail') || entry.event.endsWith('failed')),
    ).toHaveLength(2);
  });
});

describe('a node and another node’s backups', () => {
  it('answers 404 to a node whose servers do not include the backup’s, changing nothing', async () => {
    const running = await createTestBackup(t.ctx, s.server, { state: 'running', disk: 's3' });
    await setServerState(t, s.server, s.node, { status: 'restoring_backup' });
    const calls: [string, 'GET' | 'POST', unknown][] = [
      [`/backups/${running.uuid}?size=10`, 'GET', undefined],
      [`/backups/${running.uuid}`, 'POST', { successful: true, checksum: SHA1, size: 1 }],
      [`/backups/${running.uuid}/restore`, 'POST', { successful: true }],
    ];
    for (const [url, method, body] of calls) {
      const response = await remote(method, url, body, otherNode);
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0].code).toBe('NotFoundHttpException');
    }
    expect((await rowOf(running.uuid)).completed_at).toBeNull();
    expect(await status()).toBe('restoring_backup');
    // Unknown, deleted and malformed backups are 404 to the right node too; no token is 401.
    const deleted = await createTestBackup(t.ctx, s.server, { state: 'running', deletedAt: new Date() });
    for (const uuid of [deleted.uuid, '00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await remote('POST', `/backups/${uuid}`, { successful: true })).statusCode).toBe(404);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/remote/backups/${running.uuid}`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('rotation (BACKUP_ROTATE_OLDEST=true)', () => {
  const target = async () => ({
    server: { id: s.server.id, uuid: s.server.uuid },
    node: toNodeRecord(
      await t.db.selectFrom('nodes').selectAll().where('id', '=', s.node.id).executeTakeFirstOrThrow(),
    ),
  });

  it('deletes the oldest unlocked successful backup for a schedule’s backup at the limit, never a route’s', async () => {
    await t.db.updateTable('servers').set({ backup_limit: 3 }).where('id', '=', s.server.id).execute();
    const old = new Date('2020-01-01T00:00:00Z');
    const locked = await createTestBackup(t.ctx, s.server, { isLocked: true, createdAt: old });
    const oldest = await createTestBackup(t.ctx, s.server, { createdAt: new Date('2020-01-02T00:00:00Z') });
    const newer = await createTestBackup(t.ctx, s.server, { createdAt: new Date('2020-01-03T00:00:00Z') });
    const route = await s.owner.browser.post(`/api/client/servers/${s.server.uuid_short}/backups`, {});
    expect(route.statusCode).toBe(400);
    const made = await t.ctx.backups.create(
      await target(),
      { name: null, ignored: [], isLocked: false },
      { actor: null, scheduled: true },
    );
    expect(made.name).toMatch(/^Backup at /);
    expect(readNullableDate((await rowOf(oldest.uuid)).deleted_at)).not.toBeNull();
    expect((await rowOf(locked.uuid)).deleted_at).toBeNull();
    expect((await rowOf(newer.uuid)).deleted_at).toBeNull();
    expect(s.daemon.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /api/servers/${s.server.uuid}/backup/${oldest.uuid}`,
      `POST /api/servers/${s.server.uuid}/backup`,
    ]);
    const deletions = await t.db
      .selectFrom('activity_logs')
      .select(['actor_id', 'properties'])
      .where('event', '=', 'server:backup.delete')
      .where('server_id', '=', s.server.id)
      .execute();
    expect(deletions.at(-1)).toEqual({
      actor_id: null,
      properties: JSON.stringify({ name: (await rowOf(oldest.uuid)).name, rotated: true }),
    });
  });

  it('still refuses when nothing may be rotated out, or the limit is 0', async () => {
    await t.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', s.server.id).execute();
    await createTestBackup(t.ctx, s.server, { isLocked: true, createdAt: new Date('2020-01-01T00:00:00Z') });
    const input = { name: null, ignored: [], isLocked: false };
    await expect(
      t.ctx.backups.create(await target(), input, { actor: null, scheduled: true }),
    ).rejects.toMatchObject({
      statusCode: 400,
      detail: 'Cannot create a new backup, this server has reached its limit of 1 backups.',
    });
    await t.db.updateTable('servers').set({ backup_limit: 0 }).where('id', '=', s.server.id).execute();
    await expect(
      t.ctx.backups.create(await target(), input, { actor: null, scheduled: true }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});

describe('deleting the server', () => {
  it('removes its backups’ archives on the node and S3 as best it can, and their rows', async () => {
    const { bearer: key } = await createAdminWithKey(t.ctx);
    const doomed = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const one = await createTestBackup(t.ctx, doomed);
    const two = await createTestBackup(t.ctx, doomed, { state: 'failed' });
    const gone = await createTestBackup(t.ctx, doomed, { deletedAt: new Date() });
    // One archive the node no longer has: the deletion goes on.
    backupAnswer = { status: 404, body: { error: 'not found' } };
    const response = await applicationRequest(t.app, key, 'DELETE', `servers/${doomed.id}`);
    expect(response.statusCode).toBe(204);
    const paths = s.daemon.calls.map((call) => `${call.method} ${call.path}`);
    expect(paths).toEqual([
      `DELETE /api/servers/${doomed.uuid}/backup/${one.uuid}`,
      `DELETE /api/servers/${doomed.uuid}/backup/${two.uuid}`,
      `DELETE /api/servers/${doomed.uuid}`,
    ]);
    expect(paths.join()).not.toContain(gone.uuid);
    expect(
      await t.db.selectFrom('backups').select('id').where('server_id', '=', doomed.id).execute(),
    ).toEqual([]);
  });
});
