import type { Item, List } from '../servers/server-wire';
import type { TaskAction } from './schedules-bodies';

/**
 * Wire shapes of `/api/client/servers/{server}/schedules*` (reference §6 `server_schedule`, `schedule_task`).
 * Cron fields are the strings as saved; times are ISO 8601 with `+00:00`, null until known. A schedule always
 * carries its tasks in `relationships.tasks`, in sequence order.
 */
export interface ScheduleTaskAttributes {
  id: number;
  /** 1, 2, 3… in the order the tasks run. */
  sequence_id: number;
  action: TaskAction;
  /** A console command, a power signal (start, stop, restart, kill), or a backup's ignored files ("" for none). */
  payload: string;
  /** Seconds to wait before the task runs, after the previous one (0–900). */
  time_offset: number;
  /** True while the task waits for its turn in a running schedule. */
  is_queued: boolean;
  continue_on_failure: boolean;
  created_at: string;
  updated_at: string;
}

export type ScheduleTaskItem = Item<'schedule_task', ScheduleTaskAttributes>;

export interface ScheduleAttributes {
  id: number;
  name: string;
  cron: { day_of_week: string; day_of_month: string; month: string; hour: string; minute: string };
  is_active: boolean;
  /** True while a run is under way (the page shows Processing and disables Run Now). */
  is_processing: boolean;
  only_when_online: boolean;
  last_run_at: string | null;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
  relationships: { tasks: List<ScheduleTaskItem> };
}

export type ScheduleItem = Item<'server_schedule', ScheduleAttributes>;
export type ScheduleResponse = ScheduleItem;
export type ScheduleListResponse = List<ScheduleItem>;
export type ScheduleTaskResponse = ScheduleTaskItem;
