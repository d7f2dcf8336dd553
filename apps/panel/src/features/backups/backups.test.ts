import { createHash } from 'node:crypto';
import { readBool, readNullableDate } from '@aerie/panel/db/dialect';
import { createTestBackup } from '@aerie/panel/test/backup-factories';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import type { DaemonAnswer, DaemonCall } from '@aerie/panel/test/daemon-stand-in';
import { addSubuser } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  serverScenarioWithDaemon,
  setServerState,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { backupLimits } from '@aerie/shared/backups/backups-bodies';
import { IGNORE_LIMITS } from '@aerie/shared/backups/ignore-limits';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * Every rule and text of the backup routes (reference §7.2 "Backups", §10 DeleteBackupTest), against a daemon
 * stand-in: list and backup_count, create (name, lock policy, ignore rules, throttle, limit, parallel creates,
 * a refusing node), download links, lock, restore (its 400s and a race), delete (locks, failed backups, the
 * node's 404), and the activity of each.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
/** What the stand-in answers to backup calls (204 by default). */
let backupAnswer: DaemonAnswer;
let creator: Actor;
let deleter: Actor;

const base = () => `/api/client/servers/${s.server.uuid_short}/backups`;
const backupCalls = (suffix = '') =>
  s.daemon.calls.filter((call: DaemonCall) => call.path === `/api/servers/${s.server.uuid}/backup${suffix}`);
const create = (actor: Actor, body: Record<string, unknown> = {}) => actor.browser.post(base(), body);
const rows = () =>
  t.db.selectFrom('backups').selectAll().where('server_id', '=', s.server.id).orderBy('id').execute();
const rowOf = (uuid: string) =>
  t.db.selectFrom('backups').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
const setLimit = (limit: number | null) =>
  t.db.updateTable('servers').set({ backup_limit: limit }).where('id', '=', s.server.id).execute();
const activity = (event: string) =>
  t.db
    .selectFrom('activity_logs')
    .select(['event', 'actor_id', 'properties'])
    .where('server_id', '=', s.server.id)
    .where('event', '=', event)
    .execute();
const error = (response: { json(): { errors: { code: string; status: string; detail: string }[] } }) =>
  response.json().errors[0] as { code: string; status: string; detail: string };

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ['backup.read'], (call) =>
    call.path.startsWith(`/api/servers/${s.server.uuid}/backup`) ? backupAnswer : undefined,
  );
  [creator, deleter] = await Promise.all([signedIn(t), signedIn(t)]);
  await addSubuser(t.ctx, s.server, creator.user, ['backup.create', 'backup.read']);
  await addSubuser(t.ctx, s.server, deleter.user, ['backup.create', 'backup.delete']);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  // Each test starts past the throttle window of the one before.
  t.advanceClock(601_000);
  backupAnswer = { status: 204 };
  s.daemon.calls.length = 0;
  await t.db.deleteFrom('backups').execute();
  await t.db.deleteFrom('activity_logs').execute();
  await setServerState(t, s.server, s.node, {});
  await setLimit(3);
});

describe('GET …/backups', () => {
  it('pages the server’s backups oldest first (20, at most 50) and counts the ones not failed', async () => {
    const made = [];
    for (let i = 0; i < 23; i++) made.push(await createTestBackup(t.ctx, s.server, { name: `B${i}` }));
    await createTestBackup(t.ctx, s.server, { state: 'failed' });
    await createTestBackup(t.ctx, s.server, { state: 'running' });
    await createTestBackup(t.ctx, s.server, { deletedAt: new Date() });
    const first = await s.subuser.get(base());
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.object).toBe('list');
    expect(body.data).toHaveLength(20);
    expect(body.data[0].attributes.uuid).toBe(made[0]?.uuid);
    expect(body.meta.backup_count).toBe(24);
    expect(body.meta.pagination).toMatchObject({
      total: 25,
      count: 20,
      per_page: 20,
      current_page: 1,
      total_pages: 2,
    });
    const second = (await s.owner.get(`${base()}?page=2`)).json();
    expect(second.data).toHaveLength(5);
    expect((await s.owner.get(`${base()}?per_page=500`)).json().meta.pagination.per_page).toBe(50);
    expect((await s.owner.get(`${base()}?per_page=abc&page=-1`)).json().meta.pagination).toMatchObject({
      per_page: 20,
      current_page: 1,
    });
  });

  it('presents a backup as the reference’s `backup`', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, {
      name: 'Nightly',
      isLocked: true,
      ignoredFiles: ['logs/', '*.tmp'],
      bytes: 123_456_789_012,
      createdAt: new Date('2030-01-02T03:04:05.678Z'),
    });
    const response = await s.owner.get(`${base()}/${uuid}`);
    expect(response.json()).toEqual({
      object: 'backup',
      attributes: {
        uuid,
        is_successful: true,
        is_locked: true,
        name: 'Nightly',
        ignored_files: ['logs/', '*.tmp'],
        checksum: `sha1:${'ab'.repeat(20)}`,
        bytes: 123_456_789_012,
        created_at: '2030-01-02T03:04:05+00:00',
        completed_at: '2030-01-02T03:04:05+00:00',
      },
    });
  });
});

describe('POST …/backups', () => {
  it('starts a backup on the node with its ignore rules and logs server:backup.start', async () => {
    const response = await create(s.owner, {
      name: '  Before update  ',
      ignored: 'logs/\n\n  *.log  \r\ncache/',
    });
    expect(response.statusCode).toBe(200);
    const { attributes } = response.json();
    expect(attributes).toMatchObject({
      name: 'Before update',
      is_successful: false,
      is_locked: false,
      ignored_files: ['logs/', '*.log', 'cache/'],
      checksum: null,
      bytes: 0,
      completed_at: null,
    });
    expect(backupCalls().map((call) => call.body)).toEqual([
      { adapter: 'wings', uuid: attributes.uuid, ignore: 'logs/\n*.log\ncache/' },
    ]);
    expect(await activity('server:backup.start')).toEqual([
      {
        event: 'server:backup.start',
        actor_id: s.owner.user.id,
        properties: JSON.stringify({ name: 'Before update', locked: false }),
      },
    ]);
  });

  it('names a backup without a name after its start time (UTC)', async () => {
    const now = t.ctx.clock();
    const response = await create(s.owner, { name: '' });
    const expected = `Backup at ${now.toISOString().slice(0, 16).replace('T', ' ')}`;
    expect(response.json().attributes.name.slice(0, expected.length)).toBe(expected);
    expect(response.json().attributes.name).toMatch(/^Backup at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('locks it only for a caller holding backup.delete', async () => {
    expect((await create(creator, { is_locked: true })).json().attributes.is_locked).toBe(false);
    expect((await create(deleter, { is_locked: true })).json().attributes.is_locked).toBe(true);
  });

  it('validates the body with Laravel’s texts', async () => {
    const response = await create(s.owner, { name: 'x'.repeat(192), is_locked: 'yes', ignored: ['a'] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((item: { detail: string }) => item.detail)).toEqual([
      'The name may not be greater than 191 characters.',
      'The is locked field must be true or false.',
      'The ignored must be a string.',
    ]);
    expect(backupCalls()).toEqual([]);
  });

  it('refuses ignore rules past the node’s bounds (1,000 rules, 512 characters each) before anything starts', async () => {
    const rules = (count: number, length: number) =>
      Array.from({ length: count }, (_, index) => `${index}`.padEnd(length, 'x'));
    const tooMany = await create(s.owner, { ignored: rules(IGNORE_LIMITS.rules + 1, 4).join('\n') });
    expect(tooMany.statusCode).toBe(422);
    expect(error(tooMany)).toEqual({
      code: 'ValidationException',
      status: '422',
      detail: 'The ignored files cannot be used: there are more than 1000 rules, at most 1000 are allowed.',
      meta: { source_field: 'ignored', rule: '' },
    });
    const tooLong = await create(s.owner, {
      ignored: `logs/\n\n${'y'.repeat(IGNORE_LIMITS.ruleLength + 1)}`,
    });
    expect(tooLong.statusCode).toBe(422);
    expect(error(tooLong).detail).toBe(
      'The ignored files cannot be used: line 3 is 513 characters long, at most 512 are allowed.',
    );
    expect(await rows()).toEqual([]);
    expect(backupCalls()).toEqual([]);
    expect(await activity('server:backup.start')).toEqual([]);
  });

  it('takes ignore rules up to the node’s bounds, counting neither comments nor blank lines', async () => {
    await setLimit(10);
    // 1,000 rules of 512 characters would pass the field's 65,535; each bound is met on its own instead.
    const thousand = Array.from({ length: IGNORE_LIMITS.rules }, (_, index) => `${index}`.padEnd(64, 'x'));
    const withComments = ['# keep these out', '', ...thousand, '  ', '# the end'].join('\n');
    expect(withComments.length).toBeLessThanOrEqual(backupLimits.ignoredMax);
    const many = await create(s.owner, { ignored: withComments });
    expect(many.statusCode).toBe(200);
    expect(many.json().attributes.ignored_files).toHaveLength(IGNORE_LIMITS.rules + 2);
    t.advanceClock(601_000);
    const longest = await create(s.owner, { ignored: 'z'.repeat(IGNORE_LIMITS.ruleLength) });
    expect(longest.statusCode).toBe(200);
    expect(backupCalls().map((call) => (call.body as { ignore: string }).ignore)).toEqual([
      ['# keep these out', ...thousand, '# the end'].join('\n'),
      'z'.repeat(IGNORE_LIMITS.ruleLength),
    ]);
    expect(await rows()).toHaveLength(2);
  });

  it('allows 2 backups in 600 s (failed ones not counted, deleted ones counted), then 429 with Retry-After', async () => {
    await createTestBackup(t.ctx, s.server, { state: 'failed' });
    await createTestBackup(t.ctx, s.server, { deletedAt: t.ctx.clock() });
    await setLimit(10);
    expect((await create(s.owner)).statusCode).toBe(200);
    t.advanceClock(100_000);
    const refused = await create(s.owner);
    expect(refused.statusCode).toBe(429);
    expect(error(refused)).toEqual({
      code: 'TooManyRequestsHttpException',
      status: '429',
      detail: 'Only 2 backups may be generated within a 600 second span of time.',
    });
    expect(Number(refused.headers['retry-after'])).toBe(500);
    t.advanceClock(500_000);
    expect((await create(s.owner)).statusCode).toBe(200);
  });

  it('refuses at the backup limit (running and successful backups count), and always without a limit', async () => {
    await createTestBackup(t.ctx, s.server, { createdAt: new Date('2020-01-01T00:00:00Z') });
    await createTestBackup(t.ctx, s.server, {
      state: 'running',
      createdAt: new Date('2020-01-01T00:00:00Z'),
    });
    await createTestBackup(t.ctx, s.server, { state: 'failed', createdAt: new Date('2020-01-01T00:00:00Z') });
    await setLimit(2);
    const refused = await create(s.owner);
    expect(refused.statusCode).toBe(400);
    expect(error(refused)).toEqual({
      code: 'TooManyBackupsException',
      status: '400',
      detail: 'Cannot create a new backup, this server has reached its limit of 2 backups.',
    });
    for (const limit of [0, null]) {
      await setLimit(limit);
      expect(error(await create(s.owner))).toMatchObject({
        detail: 'Cannot create a new backup, this server has reached its limit of 0 backups.',
      });
    }
    expect(backupCalls()).toEqual([]);
    expect(await rows()).toHaveLength(3);
  });

  it('never passes the limit when many creates arrive at once', async () => {
    await setLimit(1);
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(s.owner)));
    expect(answers.map((response) => response.statusCode).sort()).toEqual([
      200, 400, 400, 400, 400, 400, 400, 400,
    ]);
    expect(await rows()).toHaveLength(1);
    expect(backupCalls()).toHaveLength(1);
  });

  it('never passes the throttle when many creates arrive at once', async () => {
    await setLimit(50);
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(s.owner)));
    expect(answers.map((response) => response.statusCode).sort()).toEqual([
      200, 200, 429, 429, 429, 429, 429, 429,
    ]);
    expect(await rows()).toHaveLength(2);
  });

  it('marks the backup failed at once when the node refuses it, and says why', async () => {
    backupAnswer = { status: 409, body: { error: 'Server is busy.' } };
    const response = await create(s.owner, { name: 'Refused' });
    expect(response.statusCode).toBe(409);
    expect(error(response)).toEqual({
      code: 'DaemonConnectionException',
      status: '409',
      detail: 'An error occurred on the remote host: Server is busy.',
    });
    const [row] = await rows();
    expect(row?.name).toBe('Refused');
    expect(readBool(row?.is_successful as boolean)).toBe(false);
    expect(readNullableDate(row?.completed_at ?? null)).not.toBeNull();
    // A failed backup does not count: the next one may start.
    backupAnswer = { status: 204 };
    expect((await s.owner.get(base())).json().meta.backup_count).toBe(0);
    expect((await create(s.owner)).statusCode).toBe(200);
  });

  it('answers 502 when the node cannot be reached, the backup failed', async () => {
    backupAnswer = 'hang-up';
    const response = await create(s.owner);
    expect(response.statusCode).toBe(502);
    expect(error(response).detail).toBe(
      'Could not establish a connection to the machine running this server. Please try again.',
    );
    expect(readNullableDate((await rows())[0]?.completed_at ?? null)).not.toBeNull();
  });
});

describe('GET …/backups/{backup}/download', () => {
  it('gives a 15-minute backup_download token for the node’s /download/backup, logged', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { name: 'Nightly' });
    // The app's clock runs ahead of the real one (each test moves it past the throttle window).
    const before = Math.floor(t.ctx.clock().getTime() / 1000);
    const response = await s.owner.get(`${base()}/${uuid}/download`);
    expect(response.statusCode).toBe(200);
    const { object, attributes } = response.json();
    expect(object).toBe('signed_url');
    const url = new URL(attributes.url);
    const node = `http://127.0.0.1:${s.daemon.port}`;
    expect(`${url.origin}${url.pathname}`).toBe(`${node}/download/backup`);
    const key = new TextEncoder().encode(t.ctx.secretBox.open(s.node.daemon_token));
    const { payload, protectedHeader } = await jwtVerify(url.searchParams.get('token') as string, key, {
      algorithms: ['HS256'],
      issuer: 'http://panel.test',
      audience: node,
      currentDate: t.ctx.clock(),
    });
    const jti = createHash('md5').update(`${s.owner.user.id}${s.server.uuid}`).digest('hex');
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', jti });
    expect(payload).toMatchObject({
      purpose: 'backup_download',
      backup_uuid: uuid,
      server_uuid: s.server.uuid,
      user_uuid: s.owner.user.uuid,
      user_id: s.owner.user.id,
    });
    expect(payload.unique_id).toMatch(/^[A-Za-z0-9]{16}$/);
    const iat = payload.iat as number;
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(payload.exp).toBe(iat + 900);
    expect(await activity('server:backup.download')).toEqual([
      {
        event: 'server:backup.download',
        actor_id: s.owner.user.id,
        properties: JSON.stringify({ name: 'Nightly' }),
      },
    ]);
  });

  it('answers 400 for a backup on a disk the panel has no adapter for (or S3 without a bucket)', async () => {
    for (const disk of ['ftp', 's3']) {
      const { uuid } = await createTestBackup(t.ctx, s.server, { disk });
      const response = await s.owner.get(`${base()}/${uuid}/download`);
      expect(response.statusCode).toBe(400);
      expect(error(response)).toEqual({
        code: 'BadRequestHttpException',
        status: '400',
        detail: 'The backup requested references an unknown disk driver type and cannot be downloaded.',
      });
    }
  });
});

describe('POST …/backups/{backup}/lock', () => {
  it('toggles the lock, logging server:backup.lock then .unlock', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { name: 'Keep' });
    const locked = await deleter.browser.post(`${base()}/${uuid}/lock`);
    expect(locked.statusCode).toBe(200);
    expect(locked.json().attributes.is_locked).toBe(true);
    expect((await deleter.browser.post(`${base()}/${uuid}/lock`)).json().attributes.is_locked).toBe(false);
    expect(await activity('server:backup.lock')).toHaveLength(1);
    expect(await activity('server:backup.unlock')).toEqual([
      {
        event: 'server:backup.unlock',
        actor_id: deleter.user.id,
        properties: JSON.stringify({ name: 'Keep' }),
      },
    ]);
    expect((await creator.browser.post(`${base()}/${uuid}/lock`)).statusCode).toBe(403);
  });
});

describe('POST …/backups/{backup}/restore', () => {
  const restore = (uuid: string, body: Record<string, unknown> = { truncate: true }) =>
    s.owner.browser.post(`${base()}/${uuid}/restore`, body);
  const status = async () =>
    (
      await t.db
        .selectFrom('servers')
        .select('status')
        .where('id', '=', s.server.id)
        .executeTakeFirstOrThrow()
    ).status;

  it('sets restoring_backup, tells the node (truncate, no URL for the node’s own file) and logs it', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { name: 'Good' });
    const response = await restore(uuid, { truncate: '1' });
    expect(response.statusCode).toBe(204);
    expect(await status()).toBe('restoring_backup');
    expect(backupCalls(`/${uuid}/restore`).map((call) => call.body)).toEqual([
      { adapter: 'wings', truncate_directory: true, download_url: null },
    ]);
    expect(await activity('server:backup.restore')).toEqual([
      {
        event: 'server:backup.restore',
        actor_id: s.owner.user.id,
        properties: JSON.stringify({ name: 'Good', truncate: true }),
      },
    ]);
    // Now the server's routes answer 409 until the node reports the end.
    expect((await restore(uuid)).statusCode).toBe(409);
  });

  it('requires truncate as a boolean', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server);
    for (const [body, detail] of [
      [{}, 'The truncate field is required.'],
      [{ truncate: 'maybe' }, 'The truncate field must be true or false.'],
    ] as const) {
      const response = await restore(uuid, body);
      expect(response.statusCode).toBe(422);
      expect(error(response)).toMatchObject({ code: 'ValidationException', detail });
    }
    expect(await status()).toBeNull();
  });

  it('refuses a server with a status, and a running or failed backup, with the reference’s texts', async () => {
    const good = await createTestBackup(t.ctx, s.server);
    await t.db
      .updateTable('servers')
      .set({ status: 'reinstall_failed' })
      .where('id', '=', s.server.id)
      .execute();
    const busy = await restore(good.uuid);
    expect(busy.statusCode).toBe(400);
    expect(error(busy)).toEqual({
      code: 'BadRequestHttpException',
      status: '400',
      detail: 'This server is not currently in a state that allows for a backup to be restored.',
    });
    await setServerState(t, s.server, s.node, {});
    for (const state of ['running', 'failed'] as const) {
      const { uuid } = await createTestBackup(t.ctx, s.server, { state });
      const response = await restore(uuid);
      expect(response.statusCode).toBe(400);
      expect(error(response).detail).toBe(
        'This backup cannot be restored at this time: not completed or failed.',
      );
    }
    expect(backupCalls()).toEqual([]);
    expect(await activity('server:backup.restore')).toEqual([]);
  });

  it('starts only one of two restores fired at once', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server);
    const answers = await Promise.all([restore(uuid), restore(uuid), restore(uuid)]);
    const statuses = answers.map((response) => response.statusCode);
    expect(statuses.filter((code) => code === 204)).toHaveLength(1);
    for (const response of answers.filter((answer) => answer.statusCode !== 204)) {
      // Refused by the access hook (409, already restoring) or by the restore's own check (400).
      expect([400, 409]).toContain(response.statusCode);
    }
    expect(backupCalls(`/${uuid}/restore`)).toHaveLength(1);
    expect(await activity('server:backup.restore')).toHaveLength(1);
  });

  it('clears the status again when the node refuses the restore', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server);
    backupAnswer = { status: 500, body: { error: 'no such archive' } };
    const response = await restore(uuid);
    expect(response.statusCode).toBe(500);
    expect(error(response).detail).toBe('An error occurred on the remote host: no such archive.');
    expect(await status()).toBeNull();
  });
});

describe('DELETE …/backups/{backup}', () => {
  const remove = (uuid: string, actor: Actor = deleter) => actor.browser.send('DELETE', `${base()}/${uuid}`);

  it('removes the node’s archive, soft-deletes the row and logs it; a second delete is 404', async () => {
    const { uuid } = await createTestBackup(t.ctx, s.server, { name: 'Old' });
    expect((await remove(uuid, creator)).statusCode).toBe(403);
    const response = await remove(uuid);
    expect(response.statusCode).toBe(204);
    expect(backupCalls(`/${uuid}`).map((call) => call.method)).toEqual(['DELETE']);
    expect(readNullableDate((await rowOf(uuid)).deleted_at)).not.toBeNull();
    expect(await activity('server:backup.delete')).toEqual([
      {
        event: 'server:backup.delete',
        actor_id: deleter.user.id,
        properties: JSON.stringify({ name: 'Old' }),
      },
    ]);
    expect((await remove(uuid)).statusCode).toBe(404);
    expect((await s.owner.get(base())).json().data).toEqual([]);
  });

  it('refuses a locked successful backup; a locked failed or running one can go', async () => {
    const locked = await createTestBackup(t.ctx, s.server, { isLocked: true });
    const refused = await remove(locked.uuid);
    expect(refused.statusCode).toBe(400);
    expect(error(refused)).toEqual({
      code: 'BackupLockedException',
      status: '400',
      detail: 'Cannot delete a backup that is marked as locked.',
    });
    expect(backupCalls()).toEqual([]);
    for (const state of ['failed', 'running'] as const) {
      const { uuid } = await createTestBackup(t.ctx, s.server, { isLocked: true, state });
      expect((await remove(uuid)).statusCode).toBe(204);
    }
  });

  it('ignores the node’s 404 (no archive) and surfaces any other error, the backup kept', async () => {
    const gone = await createTestBackup(t.ctx, s.server);
    backupAnswer = { status: 404, body: { error: 'The requested resource does not exist on this server.' } };
    expect((await remove(gone.uuid)).statusCode).toBe(204);
    const kept = await createTestBackup(t.ctx, s.server);
    backupAnswer = { status: 500, body: { error: 'disk on fire' } };
    const response = await remove(kept.uuid);
    expect(response.statusCode).toBe(500);
    expect(error(response).detail).toBe('An error occurred on the remote host: disk on fire.');
    expect((await rowOf(kept.uuid)).deleted_at).toBeNull();
  });
});

describe('the pruner', () => {
  it('marks failed (and unlocked) the backups their node never answered for within BACKUP_PRUNE_AGE', async () => {
    const now = t.ctx.clock().getTime();
    const stale = await createTestBackup(t.ctx, s.server, {
      state: 'running',
      isLocked: true,
      createdAt: new Date(now - 361 * 60_000),
    });
    const young = await createTestBackup(t.ctx, s.server, {
      state: 'running',
      createdAt: new Date(now - 359 * 60_000),
    });
    const done = await createTestBackup(t.ctx, s.server, { createdAt: new Date(now - 999 * 60_000) });
    expect(await t.ctx.backupPruner.tick()).toBe(1);
    const failed = await rowOf(stale.uuid);
    expect(readBool(failed.is_successful)).toBe(false);
    expect(readBool(failed.is_locked)).toBe(false);
    expect(readNullableDate(failed.completed_at)?.getTime()).toBeGreaterThanOrEqual(now);
    expect((await rowOf(young.uuid)).completed_at).toBeNull();
    expect(readNullableDate((await rowOf(done.uuid)).completed_at)?.getTime()).toBe(now - 999 * 60_000);
    // Once the clock moves past its age, the younger one fails too; nothing is marked twice.
    t.advanceClock(2 * 60_000);
    expect(await t.ctx.backupPruner.tick()).toBe(1);
    expect(await t.ctx.backupPruner.tick()).toBe(0);
  });
});
