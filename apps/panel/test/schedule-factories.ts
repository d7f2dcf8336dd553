import type { AppContext } from '@aerie/panel/app-context';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { TaskAction } from '@aerie/shared/schedules/schedules-bodies';
import type { ServerRow } from './server-factories';

export interface TestScheduleInput {
  name?: string;
  /** minute hour day-of-month month day-of-week, split on spaces. */
  cron?: string;
  isActive?: boolean;
  /** Held by a live run (`test:c0`, its lease an hour ahead) unless `leaseUntil` says otherwise. */
  isProcessing?: boolean;
  leaseUntil?: Date | null;
  onlyWhenOnline?: boolean;
  nextRunAt?: Date | null;
  lastRunAt?: Date | null;
}

/** A schedule of `server` written straight into the database (every minute, active, due now by default). */
export async function createTestSchedule(
  ctx: AppContext,
  server: Pick<ServerRow, 'id'>,
  input: TestScheduleInput = {},
) {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = (input.cron ?? '* * * * *').split(' ') as string[];
  const now = ctx.clock();
  return insertReturningId(
    ctx.db,
    ctx.db.insertInto('schedules').values({
      server_id: server.id,
      name: input.name ?? 'Test schedule',
      cron_minute: minute ?? '*',
      cron_hour: hour ?? '*',
      cron_day_of_month: dayOfMonth ?? '*',
      cron_month: month ?? '*',
      cron_day_of_week: dayOfWeek ?? '*',
      is_active: input.isActive ?? true,
      is_processing: input.isProcessing ?? false,
      ...(input.isProcessing
        ? {
            claimed_by: 'test:c0',
            lease_until:
              input.leaseUntil === undefined ? new Date(now.getTime() + 3_600_000) : input.leaseUntil,
          }
        : {}),
      only_when_online: input.onlyWhenOnline ?? false,
      next_run_at: input.nextRunAt === undefined ? now : input.nextRunAt,
      last_run_at: input.lastRunAt ?? null,
      created_at: now,
      updated_at: now,
    }),
  );
}

export interface TestTaskInput {
  action?: TaskAction;
  payload?: string;
  timeOffset?: number;
  continueOnFailure?: boolean;
}

/** Tasks appended to a schedule in the order given (sequence 1, 2, …, after any it has). */
export async function addTestTasks(
  ctx: AppContext,
  scheduleId: number,
  tasks: TestTaskInput[],
): Promise<number[]> {
  const last = await ctx.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max<number | null>('sequence_id').as('last'))
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirst();
  let sequence = Number(last?.last ?? 0);
  const now = ctx.clock();
  const ids: number[] = [];
  for (const task of tasks) {
    sequence += 1;
    ids.push(
      await insertReturningId(
        ctx.db,
        ctx.db.insertInto('tasks').values({
          schedule_id: scheduleId,
          sequence_id: sequence,
          action: task.action ?? 'command',
          payload: task.payload ?? `say task ${sequence}`,
          time_offset: task.timeOffset ?? 0,
          is_queued: false,
          continue_on_failure: task.continueOnFailure ?? false,
          created_at: now,
          updated_at: now,
        }),
      ),
    );
  }
  return ids;
}
