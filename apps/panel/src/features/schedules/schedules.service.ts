import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ActivityLog, serverActivity } from '@aerie/panel/features/activity/activity-log';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { displayError } from '@aerie/panel/http/errors';
import type { ScheduleBody } from '@aerie/shared/schedules/schedules-bodies';
import { scheduleMessages } from '@aerie/shared/schedules/schedules-messages';
import type { CronFields } from './cron-expression';
import { nextRunAt } from './cron-expression';
import type { ScheduleRecord, TaskRecord } from './schedule-record';
import type { ScheduleRunner } from './schedule-runner';
import {
  deleteSchedule,
  findServerSchedule,
  insertSchedule,
  listServerSchedules,
  type ScheduleValues,
  tasksOfSchedules,
  updateSchedule,
} from './schedules.repository';

export interface ScheduleWithTasks {
  schedule: ScheduleRecord;
  tasks: TaskRecord[];
}

/**
 * The Schedules pages' verbs on schedules (reference §7.2 "Schedules and tasks"); each change is logged in its
 * transaction (`server:schedule.*`). Run Now hands the schedule to the worker's runner.
 */
export class SchedulesService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      activity: ActivityLog;
      runner: ScheduleRunner;
      /** APP_TIMEZONE: the zone cron fields are read in. */
      timezone: string;
    },
  ) {}

  async list(access: ServerAccess): Promise<ScheduleWithTasks[]> {
    const schedules = await listServerSchedules(this.deps.db, access.server.id);
    const tasks = await tasksOfSchedules(
      this.deps.db,
      schedules.map((schedule) => schedule.id),
    );
    return schedules.map((schedule) => ({ schedule, tasks: tasks.get(schedule.id) ?? [] }));
  }

  /** The schedule as saved now, with its tasks. */
  async view(schedule: Pick<ScheduleRecord, 'id' | 'serverId'>): Promise<ScheduleWithTasks> {
    const current = (await findServerSchedule(
      this.deps.db,
      schedule.serverId,
      schedule.id,
    )) as ScheduleRecord;
    const tasks = await tasksOfSchedules(this.deps.db, [schedule.id]);
    return { schedule: current, tasks: tasks.get(schedule.id) ?? [] };
  }

  /**
   * @throws HttpError 400 DisplayException when the cron fields do not make an expression
   */
  async create(access: ServerAccess, body: ScheduleBody): Promise<ScheduleWithTasks> {
    const now = this.deps.clock();
    const values = this.#values(body, now);
    const id = await this.deps.db.transaction().execute(async (tx) => {
      const id = await insertSchedule(tx, access.server.id, values, now);
      await this.#record(tx, access, 'server:schedule.create', { name: values.name });
      return id;
    });
    return this.view({ id, serverId: access.server.id });
  }

  /**
   * Replaces the schedule's fields (upstream's update takes the create body whole). Switching `is_active` also
   * frees a schedule stuck in Processing: the run holding it, if any, stops at its next task.
   * @throws HttpError 400 DisplayException when the cron fields do not make an expression
   */
  async update(
    access: ServerAccess,
    schedule: ScheduleRecord,
    body: ScheduleBody,
  ): Promise<ScheduleWithTasks> {
    const now = this.deps.clock();
    const values = this.#values(body, now);
    await this.deps.db.transaction().execute(async (tx) => {
      await updateSchedule(tx, schedule.id, values, {
        now,
        resetProcessing: values.isActive !== schedule.isActive,
      });
      await this.#record(tx, access, 'server:schedule.update', {
        name: values.name,
        active: values.isActive,
      });
    });
    return this.view(schedule);
  }

  /** Deletes the schedule and its tasks; a run holding it ends at its next task. */
  async remove(access: ServerAccess, schedule: ScheduleRecord): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      await deleteSchedule(tx, schedule.id);
      await this.#record(tx, access, 'server:schedule.delete', { name: schedule.name });
    });
  }

  /**
   * Run Now: the schedule is claimed and run at once, its first task without its offset, whether active or not.
   * While a run already holds it nothing more starts (the page disables the button while it processes).
   * @throws HttpError 400 DisplayException when the schedule has no tasks
   */
  async execute(access: ServerAccess, schedule: ScheduleRecord): Promise<void> {
    const tasks = await tasksOfSchedules(this.deps.db, [schedule.id]);
    if ((tasks.get(schedule.id) ?? []).length === 0) throw displayError(scheduleMessages.noTasks);
    await this.deps.runner.runNow(schedule.id, (tx) =>
      this.#record(tx, access, 'server:schedule.execute', { name: schedule.name }),
    );
  }

  #values(body: ScheduleBody, now: Date): ScheduleValues {
    const cron: CronFields = {
      minute: body.minute,
      hour: body.hour,
      dayOfMonth: body.day_of_month,
      // Not validated upstream: a missing month makes no expression (400), a number is read as its digits.
      month: typeof body.month === 'string' || typeof body.month === 'number' ? String(body.month) : '',
      dayOfWeek: body.day_of_week,
    };
    return {
      name: body.name,
      cron,
      isActive: body.is_active ?? false,
      onlyWhenOnline: body.only_when_online,
      nextRunAt: nextRunAt(cron, now, this.deps.timezone),
    };
  }

  #record(
    tx: Tx,
    access: ServerAccess,
    event:
      | 'server:schedule.create'
      | 'server:schedule.update'
      | 'server:schedule.delete'
      | 'server:schedule.execute',
    properties: Record<string, unknown>,
  ) {
    return this.deps.activity.record(tx, { event, ...serverActivity(access), properties });
  }
}
