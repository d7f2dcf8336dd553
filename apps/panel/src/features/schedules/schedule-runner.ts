import { randomBytes } from 'node:crypto';
import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import type { ActivityEntry } from '@aerie/panel/features/activity/activity-log';
import type { BackupsService } from '@aerie/panel/features/backups/backups.service';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { PowerService } from '@aerie/panel/features/servers/power.service';
import { type PowerSignal, powerSignals } from '@aerie/panel/features/servers/power-signal';
import type { Log } from '@aerie/panel/logging/log';
import { ignoreRules } from '@aerie/shared/backups/backups-bodies';
import { BatchedLoader, ConcurrencyGate, retryOnConflict, sleep } from './batching';
import { nextRunAt } from './cron-expression';
import { RunWrites } from './run-writes';
import {
  type ClaimedSchedule,
  claimedSchedules,
  claimSchedule,
  nodesById,
  type RunState,
  renewLeases,
  runStates,
  setNextRunAt,
  setTasksQueued,
} from './schedule-claims.repository';
import type { TaskRecord } from './schedule-record';
import { tasksOfSchedules } from './schedules.repository';

export interface ScheduleRunnerOptions {
  /** How long a claim holds without renewal: a runner that died frees its schedules this long after. */
  leaseMs: number;
  /** How often live claims are renewed. */
  heartbeatMs: number;
  /** Daemon calls in flight at once, over all runs. */
  concurrency: number;
  /** Waits a task's offset; tests pass one that moves their clock instead. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const defaultRunnerOptions: ScheduleRunnerOptions = {
  leaseMs: 120_000,
  heartbeatMs: 30_000,
  concurrency: 64,
  sleep,
};

/** Daemon states in which `only_when_online` skips a run (upstream's ProcessScheduleService). */
const OFFLINE_STATES = new Set(['offline', 'stopping']);

/** How long one daemon answer about a server's state is reused by the runs of its other schedules. */
const SERVER_STATE_TTL_MS = 1000;

/** How a run ended, for the server's activity log (`server:schedule.*`, recorded with no actor). */
interface RunOutcome {
  event: 'server:schedule.run' | 'server:schedule.fail' | 'server:schedule.stop' | 'server:schedule.skip';
  properties?: Record<string, unknown>;
}

/** Why a run stopped before one of its tasks, as the activity log says it. */
const runStopReasons = {
  panelStopping: 'the panel was stopping',
  switchedOff: 'the schedule was switched off',
  serverBusy: (status: string) =>
    ({
      suspended: 'the server is suspended',
      installing: 'the server is installing',
      install_failed: 'the server failed to install',
      reinstall_failed: 'the server failed to reinstall',
      restoring_backup: 'the server is restoring a backup',
    })[status] ?? `the server is ${status}`,
  internalError: 'the panel stopped the run with an error (see its log)',
};

interface Run {
  token: string;
  manual: boolean;
  claimed: ClaimedSchedule;
  node: NodeRecord | undefined;
  tasks: TaskRecord[];
}

/**
 * Runs claimed schedules (reference §7.2; upstream's ProcessScheduleService and RunTaskJob): the tasks in sequence,
 * each after its offset (the first one at once when run by hand); `only_when_online` skips the run when the daemon
 * says the server is offline or stopping, or cannot say; a failing task ends the run unless it continues on
 * failure; before each later task the run checks it still holds its claim, that the schedule is still active (a run
 * by hand goes on regardless) and that the server is in no conflict state. Whatever happens, the run ends with the
 * schedule idle again. Commands and power signals go through the power service, as the console's buttons do.
 */
export class ScheduleRunner {
  /** Names this runner's claims (`<id>:c1`, `<id>:m2`…). */
  readonly id = randomBytes(6).toString('hex');
  readonly options: ScheduleRunnerOptions;
  readonly #writes: RunWrites;
  readonly #states: BatchedLoader<number, RunState>;
  readonly #gate: ConcurrencyGate;
  readonly #runs = new Set<Promise<void>>();
  /** Live runs per claim token, for the heartbeat. */
  readonly #liveTokens = new Map<string, number>();
  readonly #serverStates = new Map<string, { until: number; online: Promise<boolean> }>();
  readonly #abort = new AbortController();
  #sequence = 0;
  #heartbeat: NodeJS.Timeout | null = null;
  #stopping = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      power: PowerService;
      /** Backup tasks start a backup as the Backups page does (BACKUP_ROTATE_OLDEST applies to them). */
      backups: Pick<BackupsService, 'create'>;
      daemon: DaemonClient;
      log: Log;
      timezone: string;
    },
    options: Partial<ScheduleRunnerOptions> = {},
  ) {
    this.options = { ...defaultRunnerOptions, ...options };
    this.#writes = new RunWrites(deps);
    this.#states = new BatchedLoader((ids) => runStates(deps.db, ids));
    this.#gate = new ConcurrencyGate(this.options.concurrency);
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  /** A new claim token: `<runner>:c<n>` for the ticker's claims, `<runner>:m<n>` for runs by hand. */
  newToken(kind: 'cron' | 'manual'): string {
    this.#sequence += 1;
    return `${this.id}:${kind === 'cron' ? 'c' : 'm'}${this.#sequence}`;
  }

  leaseUntil(now: Date): Date {
    return new Date(now.getTime() + this.options.leaseMs);
  }

  /**
   * Run Now: claims the schedule unless a run holds it, in one transaction with `alongside` (the activity entry),
   * then starts the run, its first task without waiting for its offset.
   * @returns false when a run already holds the schedule (nothing started)
   */
  async runNow(scheduleId: number, alongside: (tx: Tx) => Promise<unknown>): Promise<boolean> {
    const token = this.newToken('manual');
    const leaseUntil = this.leaseUntil(this.deps.clock());
    const claimed = await retryOnConflict(() =>
      this.deps.db.transaction().execute(async (tx) => {
        if (!(await claimSchedule(tx, { scheduleId, token, leaseUntil }))) return false;
        await alongside(tx);
        return true;
      }),
    );
    if (claimed) await this.startClaimed(token, { manual: true });
    return claimed;
  }

  /**
   * Starts the runs of every schedule `token` claimed: sets their next run (from now, as upstream does when a run
   * starts) and queues their first tasks in one transaction, then runs each. Resolves once they have started.
   * @returns how many runs started
   */
  async startClaimed(token: string, { manual }: { manual: boolean }): Promise<number> {
    const { db, clock, timezone } = this.deps;
    const claimed = await claimedSchedules(db, token);
    if (claimed.length === 0) return 0;
    const ids = claimed.map(({ schedule }) => schedule.id);
    const [tasks, nodes] = await Promise.all([
      tasksOfSchedules(db, ids),
      nodesById(
        db,
        claimed.map(({ server }) => server.nodeId),
      ),
    ]);
    const now = clock();
    const byNextRun = new Map<number, number[]>();
    for (const { schedule } of claimed) {
      let next: number;
      try {
        next = nextRunAt(schedule.cron, now, timezone).getTime();
      } catch {
        // Not possible through the API; a hand-edited row waits in the past until someone fixes its cron.
        continue;
      }
      byNextRun.set(next, [...(byNextRun.get(next) ?? []), schedule.id]);
    }
    const firstTasks = ids.flatMap(
      (id) =>
        tasks
          .get(id)
          ?.slice(0, 1)
          .map((task) => task.id) ?? [],
    );
    await retryOnConflict(() =>
      db.transaction().execute(async (tx) => {
        for (const [next, scheduleIds] of byNextRun)
          await setNextRunAt(tx, token, scheduleIds, new Date(next));
        await setTasksQueued(tx, firstTasks, true);
      }),
    );
    for (const entry of claimed) {
      this.#track(
        token,
        this.#run({
          token,
          manual,
          claimed: entry,
          node: nodes.get(entry.server.nodeId),
          tasks: tasks.get(entry.schedule.id) ?? [],
        }),
      );
    }
    return claimed.length;
  }

  /** Resolves once every run started so far has ended and its writes are committed. */
  async idle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs]);
    await this.#writes.settled();
  }

  /**
   * Stops: waits of offsets end at once, no further task starts, and every run ends with its schedule idle again
   * (the rest of its tasks skipped), so a panel stopped mid-run leaves nothing in Processing.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#abort.abort();
    await this.idle();
    this.#stopHeartbeat();
  }

  /** Renews the lease of every claim with a live run. */
  async renew(): Promise<void> {
    const tokens = [...this.#liveTokens.keys()];
    if (tokens.length === 0) return;
    await retryOnConflict(() => renewLeases(this.deps.db, tokens, this.leaseUntil(this.deps.clock())));
  }

  #track(token: string, run: Promise<void>) {
    this.#liveTokens.set(token, (this.#liveTokens.get(token) ?? 0) + 1);
    this.#runs.add(run);
    this.#startHeartbeat();
    void run.finally(() => {
      this.#runs.delete(run);
      const live = (this.#liveTokens.get(token) ?? 1) - 1;
      if (live > 0) this.#liveTokens.set(token, live);
      else this.#liveTokens.delete(token);
      if (this.#runs.size === 0) this.#stopHeartbeat();
    });
  }

  #startHeartbeat() {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      this.renew().catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'Could not renew the leases of running schedules'),
      );
    }, this.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  #stopHeartbeat() {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  async #run(run: Run): Promise<void> {
    const { token, manual, claimed, node, tasks } = run;
    const { schedule, server } = claimed;
    // Skipped runs (a server in a conflict state, no tasks) leave the last run as it was, and the log too.
    let ran = false;
    let holdsClaim = true;
    let outcome: RunOutcome | null = null;
    const failures: { task: number; action: string; message: string }[] = [];
    try {
      if (this.#stopping || server.status !== null || !node || tasks.length === 0) return;
      ran = true;
      if (schedule.onlyWhenOnline && !(await this.#isOnline(server.uuid, node))) {
        outcome = { event: 'server:schedule.skip' };
        return;
      }
      for (const [index, task] of tasks.entries()) {
        const previous = tasks[index - 1];
        if (previous)
          this.#background(
            this.#writes.queue([
              [previous.id, false],
              [task.id, true],
            ]),
          );
        const stopped = (reason: string): RunOutcome => ({
          event: 'server:schedule.stop',
          properties: { task: task.sequenceId, reason },
        });
        const wait = index === 0 && manual ? 0 : task.timeOffset * 1000;
        if (wait > 0) await this.options.sleep(wait, this.#abort.signal);
        if (this.#stopping) {
          outcome = stopped(runStopReasons.panelStopping);
          return;
        }
        if (wait > 0 || index > 0) {
          const state = await this.#states.get(schedule.id);
          if (state?.claimedBy !== token) {
            holdsClaim = false;
            return;
          }
          if (!state.isActive && !manual) {
            outcome = stopped(runStopReasons.switchedOff);
            return;
          }
          if (state.serverStatus !== null) {
            outcome = stopped(runStopReasons.serverBusy(state.serverStatus));
            return;
          }
        }
        try {
          await this.#gate.run(() => this.#dispatch(server, node, task));
        } catch (error) {
          const message = messageOf(error);
          this.deps.log.warn(
            { schedule: schedule.id, server: server.uuid, task: task.sequenceId, action: task.action },
            `Schedule ${schedule.id} ("${schedule.name}") task ${task.sequenceId} (${task.action}) failed: ${message}`,
          );
          if (!task.continueOnFailure) {
            outcome = {
              event: 'server:schedule.fail',
              properties: { task: task.sequenceId, action: task.action, message },
            };
            return;
          }
          failures.push({ task: task.sequenceId, action: task.action, message });
        }
      }
      outcome = { event: 'server:schedule.run', properties: failures.length > 0 ? { failures } : {} };
    } catch (error) {
      this.deps.log.error(
        { err: error, schedule: schedule.id },
        `Schedule ${schedule.id} stopped with an error`,
      );
      outcome = {
        event: 'server:schedule.fail',
        properties: { task: null, action: null, message: runStopReasons.internalError },
      };
    } finally {
      // A run whose claim was taken away ends without touching the schedule: it is someone else's now.
      if (holdsClaim) {
        const entry: ActivityEntry | null = outcome && {
          event: outcome.event,
          actor: null,
          server: { id: server.id },
          properties: { name: schedule.name, manual, ...outcome.properties },
          ip: '',
          isApi: false,
        };
        await this.#writes
          .complete(token, schedule.id, ran, entry)
          .catch((error: unknown) =>
            this.deps.log.error(
              { err: error, schedule: schedule.id },
              `Could not mark schedule ${schedule.id} as done; it is freed when its claim lapses`,
            ),
          );
      }
    }
  }

  async #dispatch(server: { id: number; uuid: string }, node: NodeRecord, task: TaskRecord): Promise<void> {
    const target = { server: { uuid: server.uuid }, node };
    switch (task.action) {
      case 'command':
        return this.deps.power.command(target, task.payload);
      case 'power': {
        const signal = task.payload.trim();
        if (!powerSignals.includes(signal as PowerSignal)) {
          throw new Error(`"${task.payload}" is not a power action (start, stop, restart or kill)`);
        }
        return this.deps.power.power(target, signal as PowerSignal);
      }
      case 'backup':
        // The payload is the ignore list, one rule a line; no actor (the activity log shows the schedule's run).
        await this.deps.backups.create(
          { server: { id: server.id, uuid: server.uuid }, node },
          { name: null, ignored: ignoreRules(task.payload), isLocked: false },
          { actor: null, scheduled: true },
        );
        return;
      default:
        throw new Error(`Unknown task action "${String(task.action)}"`);
    }
  }

  /** Whether the daemon says the server is neither offline nor stopping (unreachable counts as offline). */
  #isOnline(uuid: string, node: NodeRecord): Promise<boolean> {
    const now = this.deps.clock().getTime();
    const cached = this.#serverStates.get(uuid);
    if (cached && cached.until > now) return cached.online;
    const online = this.#gate
      .run(() => this.deps.daemon.forServer(node, uuid).details())
      .then(
        (details) => !OFFLINE_STATES.has(details.state ?? details.utilization?.state ?? 'offline'),
        () => false,
      );
    if (this.#serverStates.size > 10_000) this.#serverStates.clear();
    this.#serverStates.set(uuid, { until: now + SERVER_STATE_TTL_MS, online });
    return online;
  }

  #background(write: Promise<void>) {
    write.catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'Could not mark the queued task of a running schedule'),
    );
  }
}

const messageOf = (error: unknown) =>
  (error as { detail?: string }).detail ?? (error instanceof Error ? error.message : String(error));
