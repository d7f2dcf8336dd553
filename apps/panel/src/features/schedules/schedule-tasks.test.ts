import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addTestTasks, createTestSchedule } from '@aerie/panel/test/schedule-factories';
import { addSubuser, createTestServer } from '@aerie/panel/test/server-factories';
import { type Actor, serverScenario, signedIn } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * A schedule's tasks (reference §7.2; §10 CreateServerScheduleTaskTest, DeleteScheduleTaskTest): the rules, the
 * per-schedule limit, the backup-limit refusal and sequence numbers kept 1…n as tasks are added, moved and deleted.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenario>>;
let creatorOnly: Actor;
let scheduleId: number;

const tasksUrl = (schedule = scheduleId, server = s.server.uuid_short) =>
  `/api/client/servers/${server}/schedules/${schedule}/tasks`;
const task = (overrides: Record<string, unknown> = {}) => ({
  action: 'command',
  payload: 'say hi',
  time_offset: 10,
  ...overrides,
});
const create = (body: unknown, actor: Actor = s.owner) =>
  actor.browser.post(tasksUrl(), body as Record<string, unknown>);
const update = (id: number, body: unknown, actor: Actor = s.owner) =>
  actor.browser.post(`${tasksUrl()}/${id}`, body as Record<string, unknown>);
const remove = (id: number, actor: Actor = s.owner, schedule = scheduleId) =>
  actor.browser.send('DELETE', `${tasksUrl(schedule)}/${id}`);
/** The schedule's tasks as `payload@sequence`, in sequence order. */
const sequence = async (schedule = scheduleId) =>
  (
    await t.db
      .selectFrom('tasks')
      .select(['payload', 'sequence_id'])
      .where('schedule_id', '=', schedule)
      .orderBy('sequence_id')
      .execute()
  ).map((row) => `${row.payload}@${row.sequence_id}`);
const errorsOf = (response: { json(): { errors: { meta?: { source_field: string; rule: string } }[] } }) =>
  response.json().errors.map((error) => [error.meta?.source_field, error.meta?.rule]);
const lastActivity = () =>
  t.db
    .selectFrom('activity_logs')
    .selectAll()
    .where('server_id', '=', s.server.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
const setBackupLimit = (limit: number | null) =>
  t.db.updateTable('servers').set({ backup_limit: limit }).where('id', '=', s.server.id).execute();

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenario(t, ['schedule.update', 'schedule.read']);
  creatorOnly = await signedIn(t);
  await addSubuser(t.ctx, s.server, creatorOnly.user, ['schedule.create', 'schedule.read']);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('schedules').execute();
  await setBackupLimit(null);
  scheduleId = await createTestSchedule(t.ctx, s.server, { name: 'Nightly' });
});

describe('POST …/tasks', () => {
  it('adds a task as the first in sequence, in upstream’s shape, and logs it', async () => {
    const response = await create(task(), s.subuser);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      object: 'schedule_task',
      attributes: {
        sequence_id: 1,
        action: 'command',
        payload: 'say hi',
        time_offset: 10,
        is_queued: false,
        continue_on_failure: false,
      },
    });
    expect(Object.keys(response.json().attributes)).toEqual([
      'id',
      'sequence_id',
      'action',
      'payload',
      'time_offset',
      'is_queued',
      'continue_on_failure',
      'created_at',
      'updated_at',
    ]);
    expect(await lastActivity()).toMatchObject({
      event: 'server:task.create',
      actor_id: s.subuser.user.id,
      properties: JSON.stringify({ name: 'Nightly', action: 'command', payload: 'say hi' }),
    });
  });

  it('answers {} with action, payload and time_offset errors, in that order', async () => {
    const response = await create({});
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The action field is required.',
        meta: { source_field: 'action', rule: 'required' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The payload field is required unless action is in backup.',
        meta: { source_field: 'payload', rule: 'required_unless' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The time offset field is required.',
        meta: { source_field: 'time_offset', rule: 'required' },
      },
    ]);
  });

  it.each([
    ['an unknown action', { action: 'hodor' }, [['action', 'in']]],
    ['a missing payload', { payload: undefined }, [['payload', 'required_unless']]],
    ['an empty payload', { payload: '' }, [['payload', 'required_unless']]],
    ['a non-numeric sequence_id', { sequence_id: 'hodor' }, [['sequence_id', 'numeric']]],
    ['a sequence_id of 0', { sequence_id: 0 }, [['sequence_id', 'min']]],
    ['an offset over 900', { time_offset: 901 }, [['time_offset', 'max']]],
    ['a negative offset', { time_offset: -1 }, [['time_offset', 'min']]],
    ['a null continue_on_failure', { continue_on_failure: null }, [['continue_on_failure', 'required']]],
  ])('refuses %s', async (_name, overrides, errors) => {
    const response = await create(task(overrides));
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual(errors);
  });

  it('takes a backup task without payload, and the offset rounded as MySQL’s integer column stores it', async () => {
    const response = await create({ action: 'backup', time_offset: '10.4', continue_on_failure: true });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({
      action: 'backup',
      payload: '',
      time_offset: 10,
      continue_on_failure: true,
    });
  });

  it('refuses a backup task whose ignored files the node would refuse (over 1,000 rules, or over 512 characters)', async () => {
    const rules = Array.from({ length: 1001 }, (_, index) => `rule-${index}`);
    for (const [payload, detail] of [
      [rules.join('\n'), 'there are more than 1000 rules, at most 1000 are allowed.'],
      [`logs/\n${'x'.repeat(513)}`, 'line 2 is 513 characters long, at most 512 are allowed.'],
    ] as const) {
      const response = await create(task({ action: 'backup', payload }));
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        {
          code: 'ValidationException',
          status: '422',
          detail: `The ignored files cannot be used: ${detail}`,
          meta: { source_field: 'payload', rule: '' },
        },
      ]);
    }
    expect(await sequence()).toEqual([]);
    // A command is no list of rules; 1,000 rules and comments are a backup task's payload.
    expect((await create(task({ payload: rules.join('\n') }))).statusCode).toBe(200);
    const most = ['# kept out', ...rules.slice(0, 1000)].join('\n');
    expect((await create(task({ action: 'backup', payload: most }))).statusCode).toBe(200);
  });

  it('refuses a backup task with 403 when the backup limit is exactly 0, with or without payload', async () => {
    await setBackupLimit(0);
    for (const body of [{ action: 'backup', time_offset: 0 }, task({ action: 'backup', payload: 'logs/' })]) {
      const response = await create(body);
      expect(response.statusCode).toBe(403);
      expect(response.json().errors[0]).toEqual({
        code: 'HttpForbiddenException',
        status: '403',
        detail: "A backup task cannot be created when the server's backup limit is set to 0.",
      });
    }
    expect((await create(task())).statusCode).toBe(200);
    await setBackupLimit(3);
    expect((await create(task({ action: 'backup' }))).statusCode).toBe(200);
  });

  it('refuses an eleventh task with 400 ServiceLimitExceededException, even sent at once', async () => {
    await addTestTasks(
      t.ctx,
      scheduleId,
      Array.from({ length: 9 }, () => ({})),
    );
    const responses = await Promise.all(Array.from({ length: 4 }, () => create(task())));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400, 400, 400]);
    const refused = responses.find((response) => response.statusCode === 400);
    expect(refused?.json().errors[0]).toEqual({
      code: 'ServiceLimitExceededException',
      status: '400',
      detail:
        'Schedules may not have more than 10 tasks associated with them. Creating this task would put this schedule over the limit.',
    });
    expect(await sequence()).toHaveLength(10);
  });

  it('puts a task at a smaller sequence_id and moves the later ones down; a larger one becomes the last', async () => {
    await addTestTasks(t.ctx, scheduleId, [{ payload: 'a' }, { payload: 'b' }, { payload: 'c' }]);
    expect((await create(task({ payload: 'x', sequence_id: 2 }))).json().attributes.sequence_id).toBe(2);
    expect(await sequence()).toEqual(['a@1', 'x@2', 'b@3', 'c@4']);
    expect((await create(task({ payload: 'y', sequence_id: 99 }))).json().attributes.sequence_id).toBe(5);
    expect((await create(task({ payload: 'z', sequence_id: '1.7' }))).json().attributes.sequence_id).toBe(1);
    expect(await sequence()).toEqual(['z@1', 'a@2', 'x@3', 'b@4', 'c@5', 'y@6']);
  });

  it('answers 404 for another server’s schedule, and 403 to a subuser with schedule.create only', async () => {
    const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const foreign = await createTestSchedule(t.ctx, other);
    expect((await s.owner.browser.post(tasksUrl(foreign), task())).statusCode).toBe(404);
    expect((await create(task(), creatorOnly)).statusCode).toBe(403);
    expect((await create(task(), s.stranger)).statusCode).toBe(404);
  });
});

describe('POST …/tasks/{task}', () => {
  it('changes a task and moves it, the tasks in between following (up and down; past the end it is last)', async () => {
    const [a, , , d] = await addTestTasks(t.ctx, scheduleId, [
      { payload: 'a' },
      { payload: 'b' },
      { payload: 'c' },
      { payload: 'd' },
    ]);
    const response = await update(
      a as number,
      task({ payload: 'a2', sequence_id: 3, continue_on_failure: true }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({
      payload: 'a2',
      sequence_id: 3,
      continue_on_failure: true,
    });
    expect(await sequence()).toEqual(['b@1', 'c@2', 'a2@3', 'd@4']);
    await update(d as number, task({ payload: 'd', sequence_id: 1 }));
    expect(await sequence()).toEqual(['d@1', 'b@2', 'c@3', 'a2@4']);
    await update(d as number, task({ payload: 'd', sequence_id: 40 }));
    expect(await sequence()).toEqual(['b@1', 'c@2', 'a2@3', 'd@4']);
    await update(a as number, task({ payload: 'a3' }));
    expect(await sequence()).toEqual(['b@1', 'c@2', 'a3@3', 'd@4']);
    expect(await lastActivity()).toMatchObject({
      event: 'server:task.update',
      properties: JSON.stringify({ name: 'Nightly', action: 'command', payload: 'a3' }),
    });
  });

  it('refuses a change to a backup task while the backup limit is 0', async () => {
    const [id] = await addTestTasks(t.ctx, scheduleId, [{}]);
    await setBackupLimit(0);
    const response = await update(id as number, task({ action: 'backup' }));
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].code).toBe('HttpForbiddenException');
  });

  it('answers 404 for a task of another schedule', async () => {
    const otherSchedule = await createTestSchedule(t.ctx, s.server);
    const [id] = await addTestTasks(t.ctx, otherSchedule, [{}]);
    expect((await update(id as number, task())).statusCode).toBe(404);
  });
});

describe('DELETE …/tasks/{task}', () => {
  it('deletes the second of four and renumbers the rest 1, 2, 3', async () => {
    const [, b] = await addTestTasks(t.ctx, scheduleId, [
      { payload: 'a' },
      { payload: 'b' },
      { payload: 'c' },
      { payload: 'd' },
    ]);
    expect((await remove(b as number, s.subuser)).statusCode).toBe(204);
    expect(await sequence()).toEqual(['a@1', 'c@2', 'd@3']);
    expect(await lastActivity()).toMatchObject({
      event: 'server:task.delete',
      properties: JSON.stringify({ name: 'Nightly' }),
    });
  });

  it('answers 404 for another server’s schedule and another schedule’s task', async () => {
    const other = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const foreignSchedule = await createTestSchedule(t.ctx, other);
    const [foreignTask] = await addTestTasks(t.ctx, foreignSchedule, [{}]);
    const [own] = await addTestTasks(t.ctx, scheduleId, [{}]);
    expect((await remove(foreignTask as number, s.owner, foreignSchedule)).statusCode).toBe(404);
    expect((await remove(foreignTask as number)).statusCode).toBe(404);
    expect((await remove(own as number, s.owner, foreignSchedule)).statusCode).toBe(404);
    expect(await sequence(foreignSchedule)).toHaveLength(1);
  });

  it('answers 403 HttpForbiddenException to schedule.create only, 404 to a stranger', async () => {
    const [id] = await addTestTasks(t.ctx, scheduleId, [{}]);
    const forbidden = await remove(id as number, creatorOnly);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().errors[0]).toEqual({
      code: 'HttpForbiddenException',
      status: '403',
      detail: 'You do not have permission to perform this action.',
    });
    expect((await remove(id as number, s.stranger)).statusCode).toBe(404);
    expect(await sequence()).toHaveLength(1);
  });
});
