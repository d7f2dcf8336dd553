/**
 * Error details of the schedule routes, word for word from the reference (§7.2 "Schedules and tasks", §10), and
 * the worker's own texts (Aerie's, in its log and documentation).
 */
export const scheduleMessages = {
  invalidCron: 'The cron data provided does not evaluate to a valid expression.',
  noTasks: 'Cannot process schedule for task execution: no tasks are registered.',
  taskLimit: (limit: number) =>
    `Schedules may not have more than ${limit} tasks associated with them. Creating this task would put this schedule over the limit.`,
  backupLimitZero: "A backup task cannot be created when the server's backup limit is set to 0.",
  /** Deleting a task without `schedule.update` (upstream's HttpForbiddenException text). */
  taskDeleteForbidden: 'You do not have permission to perform this action.',
} as const;
