import { readBool, readDate, readNullableDate } from '@aerie/panel/db/dialect';
import type { SchedulesTable, TasksTable } from '@aerie/panel/db/schema-schedules';
import type { TaskAction } from '@aerie/shared/schedules/schedules-bodies';
import type { Selectable } from 'kysely';
import type { CronFields } from './cron-expression';

/** A schedule as the routes and the worker see it: booleans and dates normalised across dialects. */
export interface ScheduleRecord {
  id: number;
  serverId: number;
  name: string;
  cron: CronFields;
  isActive: boolean;
  isProcessing: boolean;
  onlyWhenOnline: boolean;
  lastRunAt: Date | null;
  nextRunAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskRecord {
  id: number;
  scheduleId: number;
  sequenceId: number;
  action: TaskAction;
  payload: string;
  /** Seconds. */
  timeOffset: number;
  isQueued: boolean;
  continueOnFailure: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns a ScheduleRecord is read from (the worker's claim columns are the worker's own). */
export const scheduleColumns = [
  'schedules.id',
  'schedules.server_id',
  'schedules.name',
  'schedules.cron_minute',
  'schedules.cron_hour',
  'schedules.cron_day_of_month',
  'schedules.cron_month',
  'schedules.cron_day_of_week',
  'schedules.is_active',
  'schedules.is_processing',
  'schedules.only_when_online',
  'schedules.last_run_at',
  'schedules.next_run_at',
  'schedules.created_at',
  'schedules.updated_at',
] as const;

type ScheduleRow = Omit<
  Selectable<SchedulesTable>,
  'claimed_by' | 'lease_until' | 'run_task_id' | 'run_task_sent' | 'run_manual' | 'run_due_at'
>;

export function toScheduleRecord(row: ScheduleRow): ScheduleRecord {
  return {
    id: row.id,
    serverId: row.server_id,
    name: row.name,
    cron: {
      minute: row.cron_minute,
      hour: row.cron_hour,
      dayOfMonth: row.cron_day_of_month,
      month: row.cron_month,
      dayOfWeek: row.cron_day_of_week,
    },
    isActive: readBool(row.is_active),
    isProcessing: readBool(row.is_processing),
    onlyWhenOnline: readBool(row.only_when_online),
    lastRunAt: readNullableDate(row.last_run_at),
    nextRunAt: readNullableDate(row.next_run_at),
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}

export function toTaskRecord(row: Selectable<TasksTable>): TaskRecord {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    sequenceId: Number(row.sequence_id),
    action: row.action as TaskAction,
    payload: row.payload,
    timeOffset: Number(row.time_offset),
    isQueued: readBool(row.is_queued),
    continueOnFailure: readBool(row.continue_on_failure),
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}
