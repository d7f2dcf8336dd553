import type { ScheduleBody, TaskAction, TaskBody } from '@aerie/shared/schedules/schedules-bodies';
import type {
  ScheduleAttributes,
  ScheduleListResponse,
  ScheduleResponse,
  ScheduleTaskAttributes,
  ScheduleTaskResponse,
} from '@aerie/shared/schedules/schedules-wire';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serverKeys } from '@/features/servers/api/servers';
import { apiClient } from '@/lib/api-client';

/** A schedule's five cron fields, as saved (spec §3 "Schedule"). */
export interface ScheduleCron {
  minute: string;
  hour: string;
  dayOfMonth: string;
  month: string;
  dayOfWeek: string;
}

/** A step of a schedule (spec §3 "Task"). */
export interface ScheduleTask {
  id: number;
  sequenceId: number;
  action: TaskAction;
  payload: string;
  /** Seconds to wait before it runs. */
  timeOffset: number;
  isQueued: boolean;
  continueOnFailure: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A schedule with its tasks in the order they run (spec §3 "Schedule"). */
export interface Schedule {
  id: number;
  name: string;
  cron: ScheduleCron;
  isActive: boolean;
  isProcessing: boolean;
  onlyWhenOnline: boolean;
  lastRunAt: Date | null;
  nextRunAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  tasks: ScheduleTask[];
}

/** Processing, Active or Inactive (spec §4): a run under way shows whatever the switch says. */
export type ScheduleStatus = 'processing' | 'active' | 'inactive';

export const scheduleStatus = (schedule: Pick<Schedule, 'isActive' | 'isProcessing'>): ScheduleStatus =>
  schedule.isProcessing ? 'processing' : schedule.isActive ? 'active' : 'inactive';

const date = (value: string | null) => (value ? new Date(value) : null);

export const toScheduleTask = (attributes: ScheduleTaskAttributes): ScheduleTask => ({
  id: attributes.id,
  sequenceId: attributes.sequence_id,
  action: attributes.action,
  payload: attributes.payload,
  timeOffset: attributes.time_offset,
  isQueued: attributes.is_queued,
  continueOnFailure: attributes.continue_on_failure,
  createdAt: new Date(attributes.created_at),
  updatedAt: new Date(attributes.updated_at),
});

/** In the order they run, whatever order they came in. */
export const sortTasks = (tasks: readonly ScheduleTask[]) =>
  [...tasks].sort((a, b) => a.sequenceId - b.sequenceId || a.id - b.id);

export const toSchedule = (attributes: ScheduleAttributes): Schedule => ({
  id: attributes.id,
  name: attributes.name,
  cron: {
    minute: attributes.cron.minute,
    hour: attributes.cron.hour,
    dayOfMonth: attributes.cron.day_of_month,
    month: attributes.cron.month,
    dayOfWeek: attributes.cron.day_of_week,
  },
  isActive: attributes.is_active,
  isProcessing: attributes.is_processing,
  onlyWhenOnline: attributes.only_when_online,
  lastRunAt: date(attributes.last_run_at),
  nextRunAt: date(attributes.next_run_at),
  createdAt: new Date(attributes.created_at),
  updatedAt: new Date(attributes.updated_at),
  tasks: sortTasks(
    (attributes.relationships?.tasks?.data ?? []).map((item) => toScheduleTask(item.attributes)),
  ),
});

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/schedules`;
const one = (serverId: string, scheduleId: number) => `${base(serverId)}/${scheduleId}`;
const tasksOf = (serverId: string, scheduleId: number) => `${one(serverId, scheduleId)}/tasks`;

/** Under the server's key, so leaving the server drops them with everything else. */
export const scheduleKeys = {
  all: (serverId: string) => [...serverKeys.detail(serverId), 'schedules'] as const,
  list: (serverId: string) => [...scheduleKeys.all(serverId), 'list'] as const,
  detail: (serverId: string, scheduleId: number) =>
    [...scheduleKeys.all(serverId), 'detail', scheduleId] as const,
};

/**
 * How often a page asks again while a schedule is processing, so it shows Active (or Inactive) once the run ends.
 * Mutable so tests can shorten it.
 */
export const schedulePolling = { intervalMs: 5_000 };

/** GET …/schedules?include=tasks */
export async function getSchedules(serverId: string, signal?: AbortSignal): Promise<Schedule[]> {
  const response = await apiClient.get<ScheduleListResponse>(base(serverId), {
    params: { include: 'tasks' },
    signal,
  });
  return response.data.map(({ attributes }) => toSchedule(attributes));
}

/** GET …/schedules/{schedule}?include=tasks */
export async function getSchedule(serverId: string, scheduleId: number, signal?: AbortSignal) {
  const response = await apiClient.get<ScheduleResponse>(one(serverId, scheduleId), {
    params: { include: 'tasks' },
    signal,
  });
  return toSchedule(response.attributes);
}

/** What the schedule modal saves. */
export interface ScheduleInput {
  name: string;
  cron: ScheduleCron;
  isActive: boolean;
  onlyWhenOnline: boolean;
}

const scheduleBody = ({ name, cron, isActive, onlyWhenOnline }: ScheduleInput) =>
  ({
    name,
    is_active: isActive,
    only_when_online: onlyWhenOnline,
    minute: cron.minute,
    hour: cron.hour,
    day_of_month: cron.dayOfMonth,
    month: cron.month,
    day_of_week: cron.dayOfWeek,
  }) satisfies ScheduleBody;

/** POST …/schedules (create) or …/schedules/{schedule} (update); the panel computes the next run. */
export async function saveSchedule(serverId: string, input: ScheduleInput, scheduleId?: number) {
  const path = scheduleId === undefined ? base(serverId) : one(serverId, scheduleId);
  const response = await apiClient.post<ScheduleResponse>(path, scheduleBody(input));
  return toSchedule(response.attributes);
}

/** DELETE …/schedules/{schedule}: its tasks go with it. */
export async function deleteSchedule(serverId: string, scheduleId: number) {
  await apiClient.delete(one(serverId, scheduleId));
}

/** POST …/schedules/{schedule}/execute: 202, the run starts with the first task at once. */
export async function executeSchedule(serverId: string, scheduleId: number) {
  await apiClient.post(`${one(serverId, scheduleId)}/execute`);
}

/** What the task modal saves. */
export interface TaskInput {
  action: TaskAction;
  payload: string;
  timeOffset: number;
  continueOnFailure: boolean;
}

const taskBody = ({ action, payload, timeOffset, continueOnFailure }: TaskInput) =>
  ({
    action,
    payload,
    time_offset: timeOffset,
    continue_on_failure: continueOnFailure,
  }) satisfies TaskBody;

/** POST …/tasks (a new task runs last) or …/tasks/{task}. */
export async function saveTask(serverId: string, scheduleId: number, input: TaskInput, taskId?: number) {
  const path =
    taskId === undefined ? tasksOf(serverId, scheduleId) : `${tasksOf(serverId, scheduleId)}/${taskId}`;
  const response = await apiClient.post<ScheduleTaskResponse>(path, taskBody(input));
  return toScheduleTask(response.attributes);
}

/** DELETE …/tasks/{task}: the tasks after it move up one. */
export async function deleteTask(serverId: string, scheduleId: number, taskId: number) {
  await apiClient.delete(`${tasksOf(serverId, scheduleId)}/${taskId}`);
}

/** Asks again every `schedulePolling.intervalMs` while one of `schedules` is processing. */
const whileProcessing = (schedules: readonly Schedule[] | undefined) =>
  schedules?.some((schedule) => schedule.isProcessing) ? schedulePolling.intervalMs : false;

export const schedulesQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: scheduleKeys.list(serverId),
    queryFn: ({ signal }) => getSchedules(serverId, signal),
    refetchInterval: (query) => whileProcessing(query.state.data),
  });

export const scheduleQueryOptions = (serverId: string, scheduleId: number) =>
  queryOptions({
    queryKey: scheduleKeys.detail(serverId, scheduleId),
    queryFn: ({ signal }) => getSchedule(serverId, scheduleId, signal),
    refetchInterval: (query) => whileProcessing(query.state.data && [query.state.data]),
  });

/** Changes one schedule in both caches: its page and the list. */
export function updateCachedSchedule(
  queryClient: QueryClient,
  serverId: string,
  scheduleId: number,
  change: (schedule: Schedule) => Schedule,
) {
  queryClient.setQueryData<Schedule>(
    scheduleKeys.detail(serverId, scheduleId),
    (schedule) => schedule && change(schedule),
  );
  queryClient.setQueryData<Schedule[]>(scheduleKeys.list(serverId), (list) =>
    list?.map((schedule) => (schedule.id === scheduleId ? change(schedule) : schedule)),
  );
}

/** Creates or changes a schedule; the answer takes its place in the caches (appended to the list when new). */
export function useSaveSchedule(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, scheduleId }: { input: ScheduleInput; scheduleId?: number }) =>
      saveSchedule(serverId, input, scheduleId),
    onSuccess: (saved) => {
      queryClient.setQueryData<Schedule>(scheduleKeys.detail(serverId, saved.id), saved);
      queryClient.setQueryData<Schedule[]>(scheduleKeys.list(serverId), (list) =>
        list?.some((schedule) => schedule.id === saved.id)
          ? list.map((schedule) => (schedule.id === saved.id ? saved : schedule))
          : list && [...list, saved],
      );
    },
  });
}

/** Deletes a schedule and drops it from the caches after the 204. */
export function useDeleteSchedule(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: number) => deleteSchedule(serverId, scheduleId),
    onSuccess: (_nothing, scheduleId) => {
      queryClient.removeQueries({ queryKey: scheduleKeys.detail(serverId, scheduleId), exact: true });
      queryClient.setQueryData<Schedule[]>(scheduleKeys.list(serverId), (list) =>
        list?.filter((schedule) => schedule.id !== scheduleId),
      );
    },
  });
}

/**
 * Run Now: the schedule shows Processing at once (spec §4), and its page asks again until the run ends. A
 * refused run loads the schedule again, the panel's state being the truth.
 */
export function useRunSchedule(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: number) => executeSchedule(serverId, scheduleId),
    onMutate: async (scheduleId) => {
      await queryClient.cancelQueries({ queryKey: scheduleKeys.detail(serverId, scheduleId), exact: true });
      updateCachedSchedule(queryClient, serverId, scheduleId, (schedule) => ({
        ...schedule,
        isProcessing: true,
      }));
    },
    onError: (_error, scheduleId) =>
      queryClient.invalidateQueries({ queryKey: scheduleKeys.detail(serverId, scheduleId), exact: true }),
  });
}

/** Creates or changes a task; the answer takes its place in the schedule (a new one runs last). */
export function useSaveTask(serverId: string, scheduleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, taskId }: { input: TaskInput; taskId?: number }) =>
      saveTask(serverId, scheduleId, input, taskId),
    onSuccess: (saved) =>
      updateCachedSchedule(queryClient, serverId, scheduleId, (schedule) => ({
        ...schedule,
        tasks: sortTasks(
          schedule.tasks.some((task) => task.id === saved.id)
            ? schedule.tasks.map((task) => (task.id === saved.id ? saved : task))
            : [...schedule.tasks, saved],
        ),
      })),
  });
}

/** Deletes a task after its confirmation; the later ones move up one, as the panel renumbers them. */
export function useDeleteTask(serverId: string, scheduleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: number) => deleteTask(serverId, scheduleId, taskId),
    onSuccess: (_nothing, taskId) =>
      updateCachedSchedule(queryClient, serverId, scheduleId, (schedule) => {
        const removed = schedule.tasks.find((task) => task.id === taskId);
        return {
          ...schedule,
          tasks: schedule.tasks
            .filter((task) => task.id !== taskId)
            .map((task) =>
              removed && task.sequenceId > removed.sequenceId
                ? { ...task, sequenceId: task.sequenceId - 1 }
                : task,
            ),
        };
      }),
  });
}
