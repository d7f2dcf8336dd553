import type { Db } from '@aerie/panel/db/database';
import { type ActivityEntry, recordActivities } from '@aerie/panel/features/activity/activity-log';
import { retryOnConflict } from './batching';
import { completeRuns, recordProgress, setTasksQueued } from './schedule-claims.repository';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** How a run ended for its schedule: it ran (sets last_run_at), it did not, or it goes back to be tried again. */
export type RunEnd = { kind: 'ran' } | { kind: 'skipped' } | { kind: 'retry'; dueAt: Date };

interface Progress {
  token: string;
  scheduleId: number;
  taskId: number;
  sent: boolean;
  /** Set by the commit: whether the run still held its schedule. */
  held: boolean;
}

interface Pending {
  /** Task id → is_queued as it should end up. */
  queued: Map<number, boolean>;
  /** Runs' progress, written before their completions. */
  progress: Progress[];
  /** Run token → schedules whose run ended, and whether it ran (sets last_run_at). */
  completions: Map<string, { ran: number[]; skipped: number[]; retried: { id: number; dueAt: Date }[] }>;
  /** How the runs ended, for the activity log: written with their completions. */
  activity: ActivityEntry[];
  waiters: Waiter[];
}

const empty = (): Pending => ({
  queued: new Map(),
  progress: [],
  completions: new Map(),
  activity: [],
  waiters: [],
});

/**
 * The writes of running schedules, committed together: what runs ask for while a commit is under way goes into the
 * next one, so 10,000 runs ending in the same second cost a few transactions instead of 20,000 statements (a group
 * commit). Each call resolves once its write is committed. Task flags are written before completions, so a run
 * that queues a task and ends at once leaves nothing queued.
 */
export class RunWrites {
  #pending = empty();
  #running: Promise<void> | null = null;

  constructor(private readonly deps: { db: Db; clock: () => Date }) {}

  /** Sets `is_queued` of tasks (the next one waiting for its offset, the one just run no more). */
  queue(changes: readonly [taskId: number, queued: boolean][]): Promise<void> {
    for (const [taskId, queued] of changes) this.#pending.queued.set(taskId, queued);
    return this.#request();
  }

  /**
   * Records how far the run `token` got on its schedule (schedule-claims.repository.ts, recordProgress).
   * @returns whether the run still holds the schedule
   */
  async progress(token: string, scheduleId: number, taskId: number, sent: boolean): Promise<boolean> {
    const entry: Progress = { token, scheduleId, taskId, sent, held: false };
    this.#pending.progress.push(entry);
    await this.#request();
    return entry.held;
  }

  /**
   * Ends a run: the schedule idle again and its claim dropped; `ran` sets its last run to the commit's time,
   * `retry` puts its next run back to when it was due; `activity` (how it ended) goes into the server's activity
   * log in the same transaction.
   */
  complete(
    token: string,
    scheduleId: number,
    end: RunEnd,
    activity: ActivityEntry | null = null,
  ): Promise<void> {
    if (activity) this.#pending.activity.push(activity);
    const entry = this.#pending.completions.get(token) ?? { ran: [], skipped: [], retried: [] };
    if (end.kind === 'retry') entry.retried.push({ id: scheduleId, dueAt: end.dueAt });
    else (end.kind === 'ran' ? entry.ran : entry.skipped).push(scheduleId);
    this.#pending.completions.set(token, entry);
    return this.#request();
  }

  /** Resolves once everything asked for so far is committed (or failed). */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #request(): Promise<void> {
    const promise = new Promise<void>((resolve, reject) => this.#pending.waiters.push({ resolve, reject }));
    this.#start();
    return promise;
  }

  #start() {
    if (this.#running) return;
    this.#running = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.#pending.waiters.length > 0) {
        const batch = this.#pending;
        this.#pending = empty();
        try {
          await retryOnConflict(() => this.#write(batch));
          for (const waiter of batch.waiters) waiter.resolve();
        } catch (error) {
          for (const waiter of batch.waiters) waiter.reject(error);
        }
      }
      this.#running = null;
    })();
  }

  async #write(batch: Pending): Promise<void> {
    const ids = (queued: boolean) =>
      [...batch.queued].filter(([, value]) => value === queued).map(([id]) => id);
    await this.deps.db.transaction().execute(async (tx) => {
      await setTasksQueued(tx, ids(false), false);
      await setTasksQueued(tx, ids(true), true);
      if (batch.progress.length > 0) {
        const held = await recordProgress(tx, batch.progress);
        for (const entry of batch.progress) entry.held = held.has(entry.scheduleId);
      }
      const now = this.deps.clock();
      for (const [token, { ran, skipped, retried }] of batch.completions) {
        if (ran.length > 0) await completeRuns(tx, { token, ids: ran, lastRunAt: now });
        if (skipped.length > 0) await completeRuns(tx, { token, ids: skipped, lastRunAt: null });
        for (const { id, dueAt } of retried)
          await completeRuns(tx, { token, ids: [id], lastRunAt: null, nextRunAt: dueAt });
      }
      await recordActivities(tx, batch.activity, now);
    });
  }
}
