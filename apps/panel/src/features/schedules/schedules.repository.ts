import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import type { TaskAction } from '@aerie/shared/schedules/schedules-bodies';
import type { CronFields } from './cron-expression';
import {
  type ScheduleRecord,
  scheduleColumns,
  type TaskRecord,
  toScheduleRecord,
  toTaskRecord,
} from './schedule-record';

/** SQL of the Schedules pages: a server's schedules and their tasks. The worker's is schedule-claims.repository.ts. */

const ID = /^\d{1,10}$/;

/** Ids per `IN (…)`, well under every driver's limit on bound values. */
export const ID_CHUNK = 1000;

export function chunks<T>(items: readonly T[], size = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The server's schedules, oldest first. */
export async function listServerSchedules(db: Db | Tx, serverId: number): Promise<ScheduleRecord[]> {
  const rows = await db
    .selectFrom('schedules')
    .select(scheduleColumns)
    .where('server_id', '=', serverId)
    .orderBy('id')
    .execute();
  return rows.map(toScheduleRecord);
}

/** One schedule of the server (`{schedule}` in a URL); another server's, or none, is undefined. */
export async function findServerSchedule(
  db: Db | Tx,
  serverId: number,
  scheduleId: string | number | undefined,
): Promise<ScheduleRecord | undefined> {
  if (scheduleId === undefined || !ID.test(String(scheduleId))) return undefined;
  const row = await db
    .selectFrom('schedules')
    .select(scheduleColumns)
    .where('id', '=', Number(scheduleId))
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  return row ? toScheduleRecord(row) : undefined;
}

/** One task of the schedule (`{task}` in a URL); another schedule's, or none, is undefined. */
export async function findScheduleTask(
  db: Db | Tx,
  scheduleId: number,
  taskId: string | number | undefined,
): Promise<TaskRecord | undefined> {
  if (taskId === undefined || !ID.test(String(taskId))) return undefined;
  const row = await db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', Number(taskId))
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirst();
  return row ? toTaskRecord(row) : undefined;
}

/** The tasks of each schedule, in sequence; a schedule without any has an empty list. */
export async function tasksOfSchedules(
  db: Db | Tx,
  scheduleIds: readonly number[],
): Promise<Map<number, TaskRecord[]>> {
  const tasks = new Map<number, TaskRecord[]>(scheduleIds.map((id) => [id, []]));
  for (const ids of chunks(scheduleIds)) {
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where('schedule_id', 'in', ids)
      .orderBy('schedule_id')
      .orderBy('sequence_id')
      .orderBy('id')
      .execute();
    for (const row of rows) tasks.get(row.schedule_id)?.push(toTaskRecord(row));
  }
  return tasks;
}

export interface ScheduleValues {
  name: string;
  cron: CronFields;
  isActive: boolean;
  onlyWhenOnline: boolean;
  nextRunAt: Date;
}

const scheduleColumnsOf = (values: ScheduleValues) => ({
  name: values.name,
  cron_minute: values.cron.minute,
  cron_hour: values.cron.hour,
  cron_day_of_month: values.cron.dayOfMonth,
  cron_month: values.cron.month,
  cron_day_of_week: values.cron.dayOfWeek,
  is_active: values.isActive,
  only_when_online: values.onlyWhenOnline,
  next_run_at: values.nextRunAt,
});

export function insertSchedule(tx: Db | Tx, serverId: number, values: ScheduleValues, now: Date) {
  return insertReturningId(
    tx,
    tx.insertInto('schedules').values({
      server_id: serverId,
      ...scheduleColumnsOf(values),
      is_processing: false,
      created_at: now,
      updated_at: now,
    }),
  );
}

/**
 * Saves the schedule's fields. `resetProcessing` also ends whatever run holds it (upstream resets the flag when
 * `is_active` changes, so a stuck schedule can be freed by switching it off and on): its claim is dropped, and the
 * runner that held it stops at its next task.
 */
export async function updateSchedule(
  tx: Tx,
  scheduleId: number,
  values: ScheduleValues,
  options: { now: Date; resetProcessing: boolean },
): Promise<void> {
  await tx
    .updateTable('schedules')
    .set({
      ...scheduleColumnsOf(values),
      ...(options.resetProcessing ? { is_processing: false, claimed_by: null, lease_until: null } : {}),
      updated_at: options.now,
    })
    .where('id', '=', scheduleId)
    .execute();
  if (options.resetProcessing) {
    await tx.updateTable('tasks').set({ is_queued: false }).where('schedule_id', '=', scheduleId).execute();
  }
}

export async function deleteSchedule(db: Db | Tx, scheduleId: number): Promise<void> {
  await db.deleteFrom('schedules').where('id', '=', scheduleId).execute();
}

/**
 * Locks the schedule's row until the transaction ends, so two requests counting or renumbering its tasks run one
 * after the other (SQLite runs one write transaction at a time already and has no FOR UPDATE).
 */
export async function lockSchedule(tx: Tx, scheduleId: number): Promise<void> {
  let query = tx.selectFrom('schedules').select('id').where('id', '=', scheduleId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  await query.executeTakeFirst();
}

/** How many tasks the schedule has, and the last sequence number in use (0 without tasks). */
export async function taskCount(
  tx: Tx,
  scheduleId: number,
): Promise<{ count: number; lastSequence: number }> {
  const row = await tx
    .selectFrom('tasks')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.max<number | string | null>('sequence_id').as('last'),
    ])
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), lastSequence: Number(row.last ?? 0) };
}

/** Moves the sequence numbers in `[from, to]` (to: open-ended when omitted) of the schedule's tasks by `by`. */
export async function shiftSequences(
  tx: Tx,
  scheduleId: number,
  range: { from: number; to?: number },
  by: 1 | -1,
): Promise<void> {
  let query = tx
    .updateTable('tasks')
    .set((eb) => ({ sequence_id: eb('sequence_id', '+', by) }))
    .where('schedule_id', '=', scheduleId)
    .where('sequence_id', '>=', range.from);
  if (range.to !== undefined) query = query.where('sequence_id', '<=', range.to);
  await query.execute();
}

export interface TaskValues {
  sequenceId: number;
  action: TaskAction;
  payload: string;
  timeOffset: number;
  continueOnFailure: boolean;
}

const taskColumnsOf = (values: TaskValues) => ({
  sequence_id: values.sequenceId,
  action: values.action,
  payload: values.payload,
  time_offset: values.timeOffset,
  continue_on_failure: values.continueOnFailure,
});

export function insertTask(tx: Tx, scheduleId: number, values: TaskValues, now: Date) {
  return insertReturningId(
    tx,
    tx.insertInto('tasks').values({
      schedule_id: scheduleId,
      ...taskColumnsOf(values),
      is_queued: false,
      created_at: now,
      updated_at: now,
    }),
  );
}

export async function updateTask(tx: Tx, taskId: number, values: TaskValues, now: Date): Promise<void> {
  await tx
    .updateTable('tasks')
    .set({ ...taskColumnsOf(values), updated_at: now })
    .where('id', '=', taskId)
    .execute();
}

export async function deleteTask(tx: Tx, taskId: number): Promise<void> {
  await tx.deleteFrom('tasks').where('id', '=', taskId).execute();
}
