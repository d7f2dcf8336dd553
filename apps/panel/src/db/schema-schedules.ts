import type { ColumnType, Generated } from 'kysely';
import type { DbBool, DbDate } from './schema-columns';

/** Tables of migrations 0007-schedules and 0012-schedule-run-progress. Read booleans and dates through db/dialect.ts. */
type Flag = ColumnType<DbBool, boolean | undefined, boolean>;
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;
type NullableTimestamp = ColumnType<DbDate | null, Date | null | undefined, Date | null>;

export interface SchedulesTable {
  id: Generated<number>;
  server_id: number;
  name: string;
  cron_day_of_week: string;
  cron_month: string;
  cron_day_of_month: string;
  cron_hour: string;
  cron_minute: string;
  is_active: Flag;
  is_processing: Flag;
  only_when_online: Flag;
  last_run_at: NullableTimestamp;
  next_run_at: NullableTimestamp;
  /** The run holding the schedule while it is processing (the worker's claim), else null. */
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** When that claim lapses unless its runner renews it. */
  lease_until: NullableTimestamp;
  /** The run's progress (migration 0012): the task whose hand-over began last, and whether the daemon answered. */
  run_task_id: ColumnType<number | null, number | null | undefined, number | null>;
  run_task_sent: Flag;
  /** The run was started by hand (Run Now). */
  run_manual: Flag;
  /** When the cron run holding the schedule was due. */
  run_due_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TasksTable {
  id: Generated<number>;
  schedule_id: number;
  sequence_id: number;
  /** command, power or backup. */
  action: string;
  payload: string;
  /** Seconds to wait before the task runs (after the previous one). */
  time_offset: number;
  is_queued: Flag;
  continue_on_failure: Flag;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ScheduleTables {
  schedules: SchedulesTable;
  tasks: TasksTable;
}
