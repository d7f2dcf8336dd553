import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ActivityLog, serverActivity } from '@aerie/panel/features/activity/activity-log';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import type { TaskBody } from '@aerie/shared/schedules/schedules-bodies';
import { scheduleMessages } from '@aerie/shared/schedules/schedules-messages';
import type { ScheduleRecord, TaskRecord } from './schedule-record';
import {
  deleteTask,
  findScheduleTask,
  insertTask,
  lockSchedule,
  shiftSequences,
  type TaskValues,
  taskCount,
  updateTask,
} from './schedules.repository';

const forbidden = (detail: string) => new HttpError(403, 'HttpForbiddenException', detail);

/**
 * A schedule's tasks (reference §7.2, upstream's ScheduleTaskController): at most `taskLimit` per schedule, no
 * backup task on a server whose backup limit is 0, and sequence numbers kept 1…n in order as tasks are added,
 * moved and deleted. Changes that count or renumber run with the schedule's row locked, and are logged in their
 * transaction (`server:task.*`).
 */
export class ScheduleTasksService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      activity: ActivityLog;
      /** SCHEDULE_TASK_LIMIT. */
      taskLimit: number;
    },
  ) {}

  /**
   * Adds a task, last unless `sequence_id` asks for an earlier place (the tasks from there on move down one).
   * @throws HttpError 400 ServiceLimitExceededException at the task limit; 403 HttpForbiddenException for a backup
   *   task when the server's backup limit is 0
   */
  async create(access: ServerAccess, schedule: ScheduleRecord, body: TaskBody): Promise<TaskRecord> {
    const now = this.deps.clock();
    const id = await this.deps.db.transaction().execute(async (tx) => {
      await lockSchedule(tx, schedule.id);
      const { count, lastSequence } = await taskCount(tx, schedule.id);
      if (count >= this.deps.taskLimit) {
        throw new HttpError(
          400,
          'ServiceLimitExceededException',
          scheduleMessages.taskLimit(this.deps.taskLimit),
        );
      }
      this.#assertBackupAllowed(access, body);
      let sequenceId = lastSequence + 1;
      const requested = requestedSequence(body, sequenceId);
      if (requested < sequenceId) {
        await shiftSequences(tx, schedule.id, { from: requested }, 1);
        sequenceId = requested;
      }
      const id = await insertTask(tx, schedule.id, this.#values(body, sequenceId), now);
      await this.#record(tx, access, 'server:task.create', schedule, body);
      return id;
    });
    return this.#find(schedule, id);
  }

  /**
   * Changes a task; a new `sequence_id` moves it there (the tasks in between move by one; past the last task it
   * becomes the last, where upstream would leave a gap).
   * @throws HttpError 403 HttpForbiddenException for a backup task when the server's backup limit is 0
   */
  async update(
    access: ServerAccess,
    schedule: ScheduleRecord,
    task: TaskRecord,
    body: TaskBody,
  ): Promise<TaskRecord> {
    this.#assertBackupAllowed(access, body);
    await this.deps.db.transaction().execute(async (tx) => {
      await lockSchedule(tx, schedule.id);
      // Moved or deleted by a request that held the lock before this one.
      const current = await findScheduleTask(tx, schedule.id, task.id);
      if (!current) throw notFound();
      const { lastSequence } = await taskCount(tx, schedule.id);
      const sequenceId = Math.min(requestedSequence(body, current.sequenceId), lastSequence);
      if (sequenceId < current.sequenceId) {
        await shiftSequences(tx, schedule.id, { from: sequenceId, to: current.sequenceId - 1 }, 1);
      } else if (sequenceId > current.sequenceId) {
        await shiftSequences(tx, schedule.id, { from: current.sequenceId + 1, to: sequenceId }, -1);
      }
      await updateTask(tx, task.id, this.#values(body, sequenceId), this.deps.clock());
      await this.#record(tx, access, 'server:task.update', schedule, body);
    });
    return this.#find(schedule, task.id);
  }

  /** Deletes a task; the ones after it move up one. */
  async remove(access: ServerAccess, schedule: ScheduleRecord, task: TaskRecord): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      await lockSchedule(tx, schedule.id);
      const current = await findScheduleTask(tx, schedule.id, task.id);
      if (!current) throw notFound();
      await deleteTask(tx, task.id);
      await shiftSequences(tx, schedule.id, { from: current.sequenceId + 1 }, -1);
      await this.deps.activity.record(tx, {
        event: 'server:task.delete',
        ...serverActivity(access),
        properties: { name: schedule.name },
      });
    });
  }

  #assertBackupAllowed(access: ServerAccess, body: TaskBody) {
    // Exactly 0: no limit set (null) allows backup tasks, as upstream.
    if (body.action === 'backup' && access.server.backupLimit === 0) {
      throw forbidden(scheduleMessages.backupLimitZero);
    }
  }

  #values(body: TaskBody, sequenceId: number): TaskValues {
    return {
      sequenceId,
      action: body.action,
      payload: body.payload ?? '',
      // Stored whole, as MySQL's integer column rounds upstream's numeric value.
      timeOffset: Math.round(body.time_offset),
      continueOnFailure: body.continue_on_failure ?? false,
    };
  }

  #record(
    tx: Tx,
    access: ServerAccess,
    event: 'server:task.create' | 'server:task.update',
    schedule: ScheduleRecord,
    body: TaskBody,
  ) {
    return this.deps.activity.record(tx, {
      event,
      ...serverActivity(access),
      properties: { name: schedule.name, action: body.action, payload: body.payload ?? '' },
    });
  }

  async #find(schedule: ScheduleRecord, taskId: number): Promise<TaskRecord> {
    return (await findScheduleTask(this.deps.db, schedule.id, taskId)) as TaskRecord;
  }
}

/** Upstream's `$request->integer('sequence_id', $default)`, at least 1. */
function requestedSequence(body: TaskBody, fallback: number): number {
  return body.sequence_id === undefined ? fallback : Math.max(1, Math.trunc(body.sequence_id));
}
