import { readBool, readDate } from '@aerie/panel/db/dialect';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addTestTasks, createTestSchedule } from '@aerie/panel/test/schedule-factories';
import { createTestServer } from '@aerie/panel/test/server-factories';
import { type Actor, serverScenarioWithDaemon } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nextRunAt } from './cron-expression';

/**
 * The schedule routes (reference §7.2 "Schedules and tasks"; §10 Create/Delete/Execute/Get/UpdateServerSchedule
 * tests) against a daemon stand-in, which Run Now's commands reach.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let otherServerId: number;

const base = (server = s.server.uuid_short) => `/api/client/servers/${server}/schedules`;
const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Restart',
  is_active: true,
  only_when_online: false,
  minute: '*/5',
  hour: '*',
  day_of_month: '*',
  month: '*',
  day_of_week: '*',
  ...overrides,
});
const create = (actor: Actor, payload: unknown) =>
  actor.browser.post(base(), payload as Record<string, unknown>);
const scheduleRow = (id: number) =>
  t.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
const lastActivity = () =>
  t.db
    .selectFrom('activity_logs')
    .selectAll()
    .where('server_id', '=', s.server.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
const errorOf = (response: { json(): { errors: unknown[] } }) => response.json().errors[0];
/** The next run of `fields` from just before or just after a request (the clock may cross a minute meanwhile). */
const nextRunsAround = (fields: Parameters<typeof nextRunAt>[0], before: Date) =>
  [before, t.ctx.clock()].map((from) => `${nextRunAt(fields, from, 'UTC').toISOString().slice(0, 19)}+00:00`);

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, [
    'schedule.read',
    'schedule.create',
    'schedule.update',
    'schedule.delete',
  ]);
  otherServerId = (await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id })).id;
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  await t.ctx.scheduleRunner.idle();
  await t.db.deleteFrom('schedules').execute();
  s.daemon.calls.length = 0;
});

describe('GET …/schedules and …/schedules/{schedule}', () => {
  it('lists the schedules with their tasks, in upstream’s shape', async () => {
    const id = await createTestSchedule(t.ctx, s.server, { cron: '5 4 * * 1', nextRunAt: null });
    const [taskId] = await addTestTasks(t.ctx, id, [{ payload: 'say hello', timeOffset: 10 }]);
    const row = await scheduleRow(id);
    const response = await s.owner.get(`${base()}?include=tasks`);
    expect(response.statusCode).toBe(200);
    const created = `${readDate(row?.created_at as Date)
      .toISOString()
      .slice(0, 19)}+00:00`;
    expect(response.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'server_schedule',
          attributes: {
            id,
            name: 'Test schedule',
            cron: { day_of_week: '1', day_of_month: '*', month: '*', hour: '4', minute: '5' },
            is_active: true,
            is_processing: false,
            only_when_online: false,
            last_run_at: null,
            next_run_at: null,
            created_at: created,
            updated_at: created,
            relationships: {
              tasks: {
                object: 'list',
                data: [
                  {
                    object: 'schedule_task',
                    attributes: {
                      id: taskId,
                      sequence_id: 1,
                      action: 'command',
                      payload: 'say hello',
                      time_offset: 10,
                      is_queued: false,
                      continue_on_failure: false,
                      created_at: created,
                      updated_at: created,
                    },
                  },
                ],
              },
            },
          },
        },
      ],
    });
    const single = await s.subuser.get(`${base()}/${id}`);
    expect(single.statusCode).toBe(200);
    expect(single.json()).toEqual(response.json().data[0]);
  });

  it('lists tasks in sequence order and answers 404 for another server’s schedule, even to its owner', async () => {
    const id = await createTestSchedule(t.ctx, s.server);
    await addTestTasks(t.ctx, id, [{ payload: 'one' }, { payload: 'two' }]);
    await t.db.updateTable('tasks').set({ sequence_id: 3 }).where('payload', '=', 'one').execute();
    const tasks = (await s.owner.get(`${base()}/${id}`)).json().attributes.relationships.tasks.data;
    expect(tasks.map((task: { attributes: { payload: string } }) => task.attributes.payload)).toEqual([
      'two',
      'one',
    ]);

    const foreign = await createTestSchedule(t.ctx, { id: otherServerId });
    for (const url of [`${base()}/${foreign}`, `${base()}/999999`, `${base()}/abc`]) {
      const response = await s.owner.get(url);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toMatchObject({ code: 'NotFoundHttpException', status: '404' });
    }
  });
});

describe('POST …/schedules', () => {
  it('creates a schedule: cron parts as strings, not processing, no tasks, next run from the cron', async () => {
    const before = t.ctx.clock();
    const response = await create(s.subuser, body({ minute: '5', only_when_online: true }));
    expect(response.statusCode).toBe(200);
    const { attributes } = response.json();
    expect(response.json().object).toBe('server_schedule');
    expect(attributes).toMatchObject({
      name: 'Restart',
      cron: { day_of_week: '*', day_of_month: '*', month: '*', hour: '*', minute: '5' },
      is_active: true,
      is_processing: false,
      only_when_online: true,
      last_run_at: null,
      relationships: { tasks: { object: 'list', data: [] } },
    });
    const fields = { minute: '5', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' };
    expect(nextRunsAround(fields, before)).toContain(attributes.next_run_at);
    expect(await lastActivity()).toMatchObject({
      event: 'server:schedule.create',
      actor_id: s.subuser.user.id,
      properties: JSON.stringify({ name: 'Restart' }),
    });
  });

  it('answers {} with the five required errors in upstream order', async () => {
    const response = await create(s.owner, {});
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(
      ['name', 'minute', 'hour', 'day_of_month', 'day_of_week'].map((field) => ({
        code: 'ValidationException',
        status: '422',
        detail: `The ${field.replace(/_/g, ' ')} field is required.`,
        meta: { source_field: field, rule: 'required' },
      })),
    );
  });

  it('refuses is_active "no" as boolean, and stores an absent is_active and only_when_online as false', async () => {
    const refused = await create(s.owner, body({ is_active: 'no' }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The is active field must be true or false.',
        meta: { source_field: 'is_active', rule: 'boolean' },
      },
    ]);
    const { is_active: _active, only_when_online: _online, ...rest } = body();
    const response = await create(s.owner, rest);
    expect(response.json().attributes).toMatchObject({ is_active: false, only_when_online: false });
  });

  it.each([
    ['free text', { minute: 'every five minutes' }],
    ['a minute out of range', { minute: '61' }],
    ['a field with a space', { minute: '1 2' }],
    ['no month', { month: undefined }],
    ['a day that never comes', { day_of_month: '31', month: '2' }],
  ])('answers 400 for %s, saving nothing', async (_name, overrides) => {
    const response = await create(s.owner, body(overrides));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({
      code: 'DisplayException',
      status: '400',
      detail: 'The cron data provided does not evaluate to a valid expression.',
    });
    expect(await t.db.selectFrom('schedules').select('id').execute()).toEqual([]);
  });
});

describe('POST …/schedules/{schedule}', () => {
  it('saves the new fields and recomputes the next run (5 * * * *)', async () => {
    const id = await createTestSchedule(t.ctx, s.server, { name: 'Old', cron: '0 0 * * *' });
    const before = t.ctx.clock();
    const response = await s.subuser.browser.post(`${base()}/${id}`, body({ name: 'New', minute: '5' }));
    expect(response.statusCode).toBe(200);
    const fields = { minute: '5', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '*' };
    expect(response.json().attributes).toMatchObject({ id, name: 'New', cron: { minute: '5', hour: '*' } });
    expect(nextRunsAround(fields, before)).toContain(response.json().attributes.next_run_at);
    expect(await lastActivity()).toMatchObject({
      event: 'server:schedule.update',
      properties: JSON.stringify({ name: 'New', active: true }),
    });
  });

  it('resets is_processing (and the tasks’ queue flags) when is_active changes, and only then', async () => {
    const id = await createTestSchedule(t.ctx, s.server, { isProcessing: true });
    const [taskId] = await addTestTasks(t.ctx, id, [{}]);
    await t.db
      .updateTable('tasks')
      .set({ is_queued: true })
      .where('id', '=', taskId as number)
      .execute();
    await s.owner.browser.post(`${base()}/${id}`, body({ is_active: true }));
    expect(readBool((await scheduleRow(id))?.is_processing)).toBe(true);
    const response = await s.owner.browser.post(`${base()}/${id}`, body({ is_active: false }));
    expect(response.json().attributes).toMatchObject({ is_active: false, is_processing: false });
    expect(response.json().attributes.relationships.tasks.data[0].attributes.is_queued).toBe(false);
  });

  it('answers 404 for another server’s schedule and leaves it as it was', async () => {
    const foreign = await createTestSchedule(t.ctx, { id: otherServerId }, { name: 'Theirs' });
    const response = await s.owner.browser.post(`${base()}/${foreign}`, body());
    expect(response.statusCode).toBe(404);
    expect((await scheduleRow(foreign))?.name).toBe('Theirs');
  });
});

describe('DELETE …/schedules/{schedule}', () => {
  it('deletes the schedule with its tasks', async () => {
    const id = await createTestSchedule(t.ctx, s.server, { name: 'Gone' });
    await addTestTasks(t.ctx, id, [{}, {}]);
    const response = await s.subuser.browser.send('DELETE', `${base()}/${id}`);
    expect(response.statusCode).toBe(204);
    expect(await scheduleRow(id)).toBeUndefined();
    expect(await t.db.selectFrom('tasks').select('id').where('schedule_id', '=', id).execute()).toEqual([]);
    expect(await lastActivity()).toMatchObject({
      event: 'server:schedule.delete',
      properties: JSON.stringify({ name: 'Gone' }),
    });
  });

  it('answers 404 for an unknown id and for another server’s schedule, which is kept', async () => {
    const foreign = await createTestSchedule(t.ctx, { id: otherServerId });
    expect((await s.owner.browser.send('DELETE', `${base()}/999999`)).statusCode).toBe(404);
    expect((await s.owner.browser.send('DELETE', `${base()}/${foreign}`)).statusCode).toBe(404);
    expect(await scheduleRow(foreign)).toBeDefined();
  });
});

describe('POST …/schedules/{schedule}/execute', () => {
  it('answers 400 for a schedule without tasks', async () => {
    const id = await createTestSchedule(t.ctx, s.server);
    const response = await s.owner.browser.post(`${base()}/${id}/execute`);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({
      code: 'DisplayException',
      status: '400',
      detail: 'Cannot process schedule for task execution: no tasks are registered.',
    });
  });

  it('runs the tasks at once (202, []), inactive or not, and leaves the schedule idle with its last run', async () => {
    const id = await createTestSchedule(t.ctx, s.server, {
      isActive: false,
      nextRunAt: null,
      name: 'Announce',
    });
    await addTestTasks(t.ctx, id, [{ payload: 'say first', timeOffset: 600 }, { payload: 'say second' }]);
    const response = await s.subuser.browser.post(`${base()}/${id}/execute`);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual([]);
    expect(await lastActivity()).toMatchObject({
      event: 'server:schedule.execute',
      actor_id: s.subuser.user.id,
      properties: JSON.stringify({ name: 'Announce' }),
    });
    await t.ctx.scheduleRunner.idle();
    // The first task's offset is skipped when run by hand.
    expect(s.callsTo('commands').map((call) => call.body)).toEqual([
      { commands: ['say first'] },
      { commands: ['say second'] },
    ]);
    const row = await scheduleRow(id);
    expect(readBool(row?.is_processing)).toBe(false);
    expect(row?.claimed_by).toBeNull();
    expect(row?.last_run_at).not.toBeNull();
    expect(row?.next_run_at).not.toBeNull();
  });

  it('starts nothing more while the schedule is processing', async () => {
    const id = await createTestSchedule(t.ctx, s.server, { isProcessing: true });
    await addTestTasks(t.ctx, id, [{}]);
    const response = await s.owner.browser.post(`${base()}/${id}/execute`);
    expect(response.statusCode).toBe(202);
    await t.ctx.scheduleRunner.idle();
    expect(s.callsTo('commands')).toEqual([]);
    expect(readBool((await scheduleRow(id))?.is_processing)).toBe(true);
  });
});

describe('APP_TIMEZONE', () => {
  it('reads the cron fields in the panel’s time zone', async () => {
    const india = await buildTestApp({ env: { APP_TIMEZONE: 'Asia/Kolkata' } });
    try {
      const scenario = await serverScenarioWithDaemon(india, []);
      try {
        const before = india.ctx.clock();
        const response = await scenario.owner.browser.post(
          `/api/client/servers/${scenario.server.uuid_short}/schedules`,
          body({ minute: '0', hour: '4' }),
        );
        // 04:00 in India (UTC+05:30, no summer time) is 22:30 UTC.
        expect(response.json().attributes.next_run_at).toMatch(/T22:30:00\+00:00$/);
        const fields = { minute: '0', hour: '4', dayOfMonth: '*', month: '*', dayOfWeek: '*' };
        const expected = nextRunAt(fields, before, 'Asia/Kolkata');
        expect(response.json().attributes.next_run_at).toBe(`${expected.toISOString().slice(0, 19)}+00:00`);
      } finally {
        await scenario.daemon.close();
      }
    } finally {
      await india.close();
    }
  });
});
