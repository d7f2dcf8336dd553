import type { Db } from '@aerie/panel/db/database';
import type { Log } from '@aerie/panel/logging/log';
import { retryOnConflict } from './batching';
import { succeedRunner } from './runner-identity';
import { claimDueSchedules } from './schedule-claims.repository';
import type { ScheduleRunner } from './schedule-runner';

export interface ScheduleTickerOptions {
  /** Ticks fall on multiples of this on the wall clock, so one lands just after each minute's start. */
  intervalMs: number;
  /** Schedules claimed per UPDATE; a full batch is followed by another at once. */
  claimBatch: number;
}

export const defaultTickerOptions: ScheduleTickerOptions = { intervalMs: 5000, claimBatch: 1000 };

/** Just after the boundary, so a schedule due at hh:mm:00 is due when the tick reads the clock. */
const TICK_MARGIN_MS = 25;

/**
 * The cron side of the worker, in every panel process (`aerie up`, `aerie panel`): each tick takes over the runs
 * whose claim lapsed (a panel that died mid-run) and goes on with them from their next task, then claims the
 * schedules due now in batches, each batch in one atomic UPDATE, and hands them to the runner. Several panels on
 * one database tick side by side; the claim lets each due schedule go to exactly one of them. Started with a data
 * directory, the first tick first takes over, lease or not, the runs of the panel that served from it before and
 * died (runner-identity.ts), so a crashed panel's runs go on as soon as it is back.
 */
export class ScheduleTicker {
  readonly options: ScheduleTickerOptions;
  #timer: NodeJS.Timeout | null = null;
  /** The runner of this data directory's previous panel, dead: its runs are taken over at the first tick. */
  #predecessor: string | null = null;
  #ticking: Promise<unknown> | null = null;
  #started = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      runner: ScheduleRunner;
      log: Log;
      /** DATA_DIR: where the runner's identity is kept across restarts (none: runs are taken over by lease only). */
      dataDir?: string;
    },
    options: Partial<ScheduleTickerOptions> = {},
  ) {
    this.options = { ...defaultTickerOptions, ...options };
  }

  /** Ticks now, then on every interval, until `stop`. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (this.deps.dataDir) {
      try {
        this.#predecessor = succeedRunner(this.deps.dataDir, this.deps.runner.id);
      } catch (error) {
        this.deps.log.warn({ err: error }, 'Could not record the schedule runner in DATA_DIR');
      }
    }
    this.#schedule(0);
  }

  /** Stops ticking, then stops the runner: running schedules end and are left idle. */
  async stop(): Promise<void> {
    this.#started = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#ticking;
    await this.deps.runner.stop();
  }

  /**
   * One tick: takes over the runs of the previous panel (the first tick) and those whose claim lapsed, then claims
   * and starts every schedule due at the clock's time.
   * @returns how many runs it took over and how many schedules it started
   */
  async tick(): Promise<{ resumed: number; claimed: number }> {
    const { db, clock, runner, log } = this.deps;
    let resumed = 0;
    const predecessor = this.#predecessor;
    if (predecessor) {
      this.#predecessor = null;
      resumed += await runner.adoptFrom(predecessor);
    }
    resumed += await runner.adoptLapsed();
    if (resumed > 0) {
      log.warn(
        { resumed },
        `Took over ${resumed} schedule run(s) left in Processing by a panel that stopped; each goes on from its next task`,
      );
    }
    let claimed = 0;
    while (!runner.stopping) {
      const now = clock();
      const token = runner.newToken('cron');
      const count = await retryOnConflict(() =>
        claimDueSchedules(db, {
          token,
          now,
          leaseUntil: runner.leaseUntil(now),
          limit: this.options.claimBatch,
        }),
      );
      if (count > 0) await runner.startClaimed(token, { manual: false });
      claimed += count;
      if (count < this.options.claimBatch) break;
    }
    return { resumed, claimed };
  }

  #schedule(delayMs: number) {
    this.#timer = setTimeout(() => {
      this.#ticking = this.tick()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'The schedule tick failed'))
        .finally(() => {
          this.#ticking = null;
          if (!this.#started) return;
          const interval = this.options.intervalMs;
          this.#schedule(interval - (Date.now() % interval) + TICK_MARGIN_MS);
        });
    }, delayMs);
    this.#timer.unref();
  }
}
