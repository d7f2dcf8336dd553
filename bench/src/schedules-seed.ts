import type { Db } from '@aerie/panel/db/database';

const CHUNK = 500;

/**
 * `perServer` active schedules on each of the servers, every minute (`* * * * *`), all due at `due`, each with
 * `tasks` command tasks at offset 0 saying `say bench <schedule id> <n>`: bulk inserts, one transaction per table.
 * @returns the schedule ids
 */
export async function seedSchedules(
  db: Db,
  options: { serverIds: number[]; perServer: number; tasks: number; due: Date },
): Promise<number[]> {
  const now = new Date();
  const rows = options.serverIds.flatMap((serverId) =>
    Array.from({ length: options.perServer }, (_, i) => ({
      server_id: serverId,
      name: `Bench schedule ${i}`,
      cron_minute: '*',
      cron_hour: '*',
      cron_day_of_month: '*',
      cron_month: '*',
      cron_day_of_week: '*',
      is_active: true,
      is_processing: false,
      only_when_online: false,
      next_run_at: options.due,
      created_at: now,
      updated_at: now,
    })),
  );
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await tx
        .insertInto('schedules')
        .values(rows.slice(i, i + CHUNK))
        .execute();
    }
  });
  const ids = (
    await db
      .selectFrom('schedules')
      .select('id')
      .where('name', 'like', 'Bench schedule %')
      .orderBy('id')
      .execute()
  ).map((row) => row.id);
  const tasks = ids.flatMap((scheduleId) =>
    Array.from({ length: options.tasks }, (_, n) => ({
      schedule_id: scheduleId,
      sequence_id: n + 1,
      action: 'command',
      payload: `say bench ${scheduleId} ${n + 1}`,
      time_offset: 0,
      is_queued: false,
      continue_on_failure: false,
      created_at: now,
      updated_at: now,
    })),
  );
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < tasks.length; i += CHUNK) {
      await tx
        .insertInto('tasks')
        .values(tasks.slice(i, i + CHUNK))
        .execute();
    }
  });
  return ids;
}
