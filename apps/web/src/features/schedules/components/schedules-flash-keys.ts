/** Errors of the Schedules pages: the list, a schedule's page, Run Now and deletes (spec §8 key `schedules`). */
export const schedulesFlashKey = 'schedules';

/** Errors of a schedule's save, shown inside the schedule modal (spec §8). */
export const scheduleModalFlashKey = 'schedule:edit';

/** Errors of a task's save, shown inside the task modal (spec §8). */
export const taskModalFlashKey = 'schedule:task';
