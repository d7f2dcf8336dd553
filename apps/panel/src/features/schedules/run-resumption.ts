import type { RunProgress } from './schedule-claims.repository';
import type { TaskRecord } from './schedule-record';

/** A task's failure as the run's activity entry lists it. */
export interface TaskFailure {
  task: number | null;
  action: string | null;
  message: string;
}

/** What a run taken over from a runner that died does next. */
export type Resumption =
  /** No task was handed over and nothing says when it was due (a claim taken before migration 0012): freed. */
  | { kind: 'release' }
  /** No task was handed over: the run starts again from its first task. */
  | { kind: 'start' }
  /** Goes on at the task at `from` (all were handed over when it is the number of tasks); `interrupted`: the
   * task whose hand-over the runner died in, which continues on failure. */
  | { kind: 'continue'; from: number; interrupted: TaskFailure | null }
  /** Ends here, marked failed. */
  | { kind: 'fail'; failure: TaskFailure };

export const resumptionMessages = {
  interrupted:
    'The panel stopped while handing this task over; it was not sent again, as it may have reached the server.',
  taskDeleted: 'The panel stopped mid-run, and the task the run had reached was deleted before it restarted.',
} as const;

/**
 * Where an interrupted run goes on (reference §7.2 runs a schedule's tasks once each, in sequence): after the
 * last task the daemon answered; a task whose hand-over was under way when the runner died may have reached the
 * server, so it is never sent again: the run goes past it only when it continues on failure, else ends failed.
 */
export function resumption(progress: RunProgress, tasks: readonly TaskRecord[]): Resumption {
  if (progress.taskId === null)
    return progress.dueAt || progress.manual ? { kind: 'start' } : { kind: 'release' };
  const index = tasks.findIndex((task) => task.id === progress.taskId);
  const task = tasks[index];
  if (!task) {
    return { kind: 'fail', failure: { task: null, action: null, message: resumptionMessages.taskDeleted } };
  }
  if (progress.sent) return { kind: 'continue', from: index + 1, interrupted: null };
  const failure = { task: task.sequenceId, action: task.action, message: resumptionMessages.interrupted };
  return task.continueOnFailure
    ? { kind: 'continue', from: index + 1, interrupted: failure }
    : { kind: 'fail', failure };
}
