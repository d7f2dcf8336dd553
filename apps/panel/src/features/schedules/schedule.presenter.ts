import { toWireDate } from '@aerie/panel/db/dialect';
import type { ScheduleItem, ScheduleTaskItem } from '@aerie/shared/schedules/schedules-wire';
import type { ScheduleRecord, TaskRecord } from './schedule-record';

const wireDate = (date: Date | null) => (date ? toWireDate(date) : null);

/** `schedule_task` (reference §6). */
export function presentTask(task: TaskRecord): ScheduleTaskItem {
  return {
    object: 'schedule_task',
    attributes: {
      id: task.id,
      sequence_id: task.sequenceId,
      action: task.action,
      payload: task.payload,
      time_offset: task.timeOffset,
      is_queued: task.isQueued,
      continue_on_failure: task.continueOnFailure,
      created_at: toWireDate(task.createdAt),
      updated_at: toWireDate(task.updatedAt),
    },
  };
}

/** `server_schedule` (reference §6), its tasks always included (upstream's default include). */
export function presentSchedule(schedule: ScheduleRecord, tasks: readonly TaskRecord[]): ScheduleItem {
  const { cron } = schedule;
  return {
    object: 'server_schedule',
    attributes: {
      id: schedule.id,
      name: schedule.name,
      cron: {
        day_of_week: cron.dayOfWeek,
        day_of_month: cron.dayOfMonth,
        month: cron.month,
        hour: cron.hour,
        minute: cron.minute,
      },
      is_active: schedule.isActive,
      is_processing: schedule.isProcessing,
      only_when_online: schedule.onlyWhenOnline,
      last_run_at: wireDate(schedule.lastRunAt),
      next_run_at: wireDate(schedule.nextRunAt),
      created_at: toWireDate(schedule.createdAt),
      updated_at: toWireDate(schedule.updatedAt),
      relationships: { tasks: { object: 'list', data: tasks.map(presentTask) } },
    },
  };
}
