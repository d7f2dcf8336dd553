import type {
  ScheduleAttributes,
  ScheduleItem,
  ScheduleTaskAttributes,
  ScheduleTaskItem,
} from '@aerie/shared/schedules/schedules-wire';

const stamp = '2026-01-01T12:00:00+00:00';

/** An ISO time `minutes` from now (negative: in the past), as the panel writes times. */
export const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** A `schedule_task` (reference §6); a command at offset 0 unless told otherwise. */
export function taskItem(
  overrides: Partial<ScheduleTaskAttributes> & { id: number; sequence_id: number },
): ScheduleTaskItem {
  return {
    object: 'schedule_task',
    attributes: {
      action: 'command',
      payload: 'say hello',
      time_offset: 0,
      is_queued: false,
      continue_on_failure: false,
      created_at: stamp,
      updated_at: stamp,
      ...overrides,
    },
  };
}

/** A `server_schedule` with its tasks (reference §6): active, every 5 minutes, no tasks unless given. */
export function scheduleItem({
  tasks = [],
  ...overrides
}: Partial<Omit<ScheduleAttributes, 'relationships'>> & {
  id: number;
  tasks?: ScheduleTaskItem[];
}): ScheduleItem {
  return {
    object: 'server_schedule',
    attributes: {
      name: `Schedule ${overrides.id}`,
      cron: { day_of_week: '*', day_of_month: '*', month: '*', hour: '*', minute: '*/5' },
      is_active: true,
      is_processing: false,
      only_when_online: true,
      last_run_at: null,
      next_run_at: null,
      created_at: stamp,
      updated_at: stamp,
      ...overrides,
      relationships: { tasks: { object: 'list', data: tasks } },
    },
  };
}

/** GET …/schedules' answer. */
export const scheduleList = (schedules: ScheduleItem[]) => ({ object: 'list' as const, data: schedules });
