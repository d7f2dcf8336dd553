import { randomBytes } from 'node:crypto';
import { type DaemonClient, DaemonUnreachableError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonMessages } from '@aerie/panel/daemon-client/daemon-http-error';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ActivityEntry, unattendedActivity } from '@aerie/panel/features/activity/activity-log';
import type { BackupsService } from '@aerie/panel/features/backups/backups.service';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { PowerService } from '@aerie/panel/features/servers/power.service';
import { type PowerSignal, powerSignals } from '@aerie/panel/features/servers/power-signal';
import type { Log } from '@aerie/panel/logging/log';
import { ignoreRules } from '@aerie/shared/backups/backups-bodies';
import { BatchedLoader, ConcurrencyGate, retryOnConflict, sleep } from './batching';
import { nextRunAt } from './cron-expression';
import { resumption, type TaskFailure } from './run-resumption';
import { type RunEnd, RunWrites } from './run-writes';
import {
  adoptClaimsOf,
  adoptLapsedClaims,
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
  /**
   * How late a cron run may still start (the panel was down when it was due, or the node did not answer, in which
   * case it is tried again at each tick). Later than this it does not run, and its activity entry says why.
   */
  maxLatenessMs: number;
}

export const defaultRunnerOptions: ScheduleRunnerOptions = {
  leaseMs: 120_000,
  heartbeatMs: 30_000,
  concurrency: 64,
  sleep,
  maxLatenessMs: 15 * 60_000,
};

/** Daemon states in which `only_when_online` skips a run (upstream's ProcessScheduleService). */
const OFFLINE_STATES = new Set(['offline', 'stopping']);

/** How long one daemon answer about a server's state (or whether its node answers) is reused by other runs. */
const SERVER_STATE_TTL_MS = 1000;

/** Claims taken over per UPDATE. */
const ADOPT_BATCH = 1000;

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
  tooLate: (dueAt: Date, limitMs: number) =>
    `it was due at ${dueAt.toISOString()} and could not start within ${Math.round(limitMs / 60_000)} minutes ` +
    '(the panel or the node was not available)',
};

interface Run {
  token: string;
  manual: boolean;
  claimed: ClaimedSchedule;
  node: NodeRecord | undefined;
  tasks: TaskRecord[];
  /** When the cron run was due (null for a run by hand). */
  dueAt: Date | null;
  /** Taken over from a runner that died: the index of the task it goes on at, and what it carries. */
  resumed: { from: number; failures: TaskFailure[]; end: TaskFailure | null } | null;
}

/**
 * Runs claimed schedules (reference §7.2; upstream's ProcessScheduleService and RunTaskJob): the tasks in sequence,
 * each after its offset (the first one at once when run by hand); `only_when_online` skips the run when the daemon
 * says the server is offline or stopping, or cannot say; a failing task ends the run unless it continues on
 * failure; before each later task the run checks it still holds its claim, that the schedule is still active (a run
 * by hand goes on regardless) and that the server is in no conflict state. Whatever happens, the run ends with the
 * schedule idle again. Commands and power signals go through the power service, as the console's buttons do.
 *
 * Exactly once across crashes: before handing a task over the run records it on its claim, and again once the
 * daemon answered, so a runner that takes over the claim of a dead one (`adoptLapsed`, `adoptFrom`) goes on at
 * the next task and never sends one twice (run-resumption.ts). A cron run starts only once the server's node
 * answers: until then it goes back to its due time and is tried at the next tick, up to `maxLatenessMs` late; a
 * run counts as run (`last_run_at`) only once a task was handed over (or `only_when_online` skipped it).
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
  /** Nodes whose daemon did not answer when last asked. */
  readonly #silentNodes = new Set<number>();
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

  /**
   * A new claim token: `<runner>:c<n>` for the ticker's claims, `<runner>:m<n>` for runs by hand, `<runner>:r<n>`
   * for runs taken over from a runner that died.
   */
  newToken(kind: 'cron' | 'manual' | 'resumed'): string {
    this.#sequence += 1;
    return `${this.id}:${{ cron: 'c', manual: 'm', resumed: 'r' }[kind]}${this.#sequence}`;
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
          dueAt: manual ? null : entry.schedule.nextRunAt,
          resumed: null,
        }),
      );
    }
    return claimed.length;
  }

  /**
   * Takes over the runs whose runner stopped renewing its claim (it died, or lost the database for longer than
   * the lease) and goes on with each from where it got (run-resumption.ts).
   * @returns how many runs it took over
   */
  async adoptLapsed(): Promise<number> {
    let adopted = 0;
    while (!this.#stopping) {
      const token = this.newToken('resumed');
      const now = this.deps.clock();
      const count = await retryOnConflict(() =>
        adoptLapsedClaims(this.deps.db, { token, now, leaseUntil: this.leaseUntil(now), limit: ADOPT_BATCH }),
      );
      if (count > 0) await this.resumeClaimed(token);
      adopted += count;
      if (count < ADOPT_BATCH) break;
    }
    return adopted;
  }

  /**
   * Takes over at once, lease or not, the runs of the runner `runnerId`, known to be dead (this panel before a
   * crash, runner-identity.ts), and goes on with each from where it got.
   * @returns how many runs it took over
   */
  async adoptFrom(runnerId: string): Promise<number> {
    if (this.#stopping) return 0;
    const token = this.newToken('resumed');
    const count = await retryOnConflict(() =>
      adoptClaimsOf(this.deps.db, { runnerId, token, leaseUntil: this.leaseUntil(this.deps.clock()) }),
    );
    if (count > 0) await this.resumeClaimed(token);
    return count;
  }

  /** Goes on with the runs `token` took over, each from its recorded progress. */
  async resumeClaimed(token: string): Promise<number> {
    const { db } = this.deps;
    const claimed = await claimedSchedules(db, token);
    if (claimed.length === 0) return 0;
    const [tasks, nodes] = await Promise.all([
      tasksOfSchedules(
        db,
        claimed.map(({ schedule }) => schedule.id),
      ),
      nodesById(
        db,
        claimed.map(({ server }) => server.nodeId),
      ),
    ]);
    for (const entry of claimed) {
      const { progress } = entry;
      const scheduleTasks = tasks.get(entry.schedule.id) ?? [];
      const next = resumption(progress, scheduleTasks);
      const run: Run = {
        token,
        manual: progress.manual,
        claimed: entry,
        node: nodes.get(entry.server.nodeId),
        tasks: scheduleTasks,
        dueAt: progress.manual ? null : progress.dueAt,
        resumed: null,
      };
      if (next.kind === 'release') {
        this.#track(
          token,
          this.#writes
            .complete(token, entry.schedule.id, { kind: 'skipped' })
            .catch((error: unknown) =>
              this.deps.log.error({ err: error }, `Could not free schedule ${entry.schedule.id}`),
            ),
        );
        continue;
      }
      if (next.kind === 'continue')
        run.resumed = { from: next.from, failures: next.interrupted ? [next.interrupted] : [], end: null };
      if (next.kind === 'fail') run.resumed = { from: scheduleTasks.length, failures: [], end: next.failure };
      this.#track(token, this.#run(run));
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
    const { token, manual, claimed, node, tasks, dueAt, resumed } = run;
    const { schedule, server } = claimed;
    const from = resumed?.from ?? 0;
    // Whether a task's hand-over began (before a restart too): only then does the run count as run, and only a run
    // that handed nothing over may go back to be tried again.
    let handedOver = from > 0 || resumed?.end != null;
    let skippedOffline = false;
    let retry = false;
    let holdsClaim = true;
    let outcome: RunOutcome | null = null;
    const failures: TaskFailure[] = [...(resumed?.failures ?? [])];
    const first = tasks[0];
    try {
      if (resumed?.end) {
        outcome = { event: 'server:schedule.fail', properties: { ...resumed.end } };
        return;
      }
      // Skipped runs (a server in a conflict state, no tasks) leave the last run as it was, and the log too. A run
      // taken over mid-way checks the server's state before its next task instead, and says why it stops.
      if (!node || !first || (server.status !== null && from === 0)) return;
      if (from === 0) {
        if (this.#stopping) {
          retry = true;
          return;
        }
        if (dueAt && this.deps.clock().getTime() - dueAt.getTime() > this.options.maxLatenessMs) {
          outcome = {
            event: 'server:schedule.stop',
            properties: {
              task: first.sequenceId,
              reason: runStopReasons.tooLate(dueAt, this.options.maxLatenessMs),
            },
          };
          return;
        }
        if (!(await this.#nodeAnswers(node))) {
          if (manual) {
            outcome = {
              event: 'server:schedule.fail',
              properties: {
                task: first.sequenceId,
                action: first.action,
                message: daemonMessages.unreachable,
              },
            };
          } else retry = true;
          return;
        }
        if (schedule.onlyWhenOnline && !(await this.#isOnline(server.uuid, node))) {
          skippedOffline = true;
          outcome = { event: 'server:schedule.skip' };
          return;
        }
      }
      for (let index = from; index < tasks.length; index++) {
        const task = tasks[index] as TaskRecord;
        const previous = tasks[index - 1];
        // The first task was queued with the claim; a run taken over queues the one it goes on at.
        if (previous || resumed)
          this.#background(
            this.#writes.queue(
              previous
                ? [
                    [previous.id, false],
                    [task.id, true],
                  ]
                : [[task.id, true]],
            ),
          );
        const stopped = (reason: string): RunOutcome => ({
          event: 'server:schedule.stop',
          properties: { task: task.sequenceId, reason },
        });
        const wait = index === 0 && manual ? 0 : task.timeOffset * 1000;
        if (wait > 0) await this.options.sleep(wait, this.#abort.signal);
        if (this.#stopping) {
          // A cron run that handed nothing over yet runs after the restart instead.
          if (handedOver || manual) outcome = stopped(runStopReasons.panelStopping);
          else retry = true;
          return;
        }
        if (wait > 0 || index > 0 || resumed) {
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
        // Recorded before the hand-over, committed, and only if the claim is still this run's: a runner that
        // dies from here on leaves the task marked as perhaps sent, and whoever takes over never sends it again.
        if (!(await this.#writes.progress(token, schedule.id, task.id, false))) {
          holdsClaim = false;
          return;
        }
        handedOver = true;
        let failure: TaskFailure | null = null;
        try {
          await this.#gate.run(() => this.#dispatch(server, node, task));
        } catch (error) {
          const message = messageOf(error);
          this.deps.log.warn(
            { schedule: schedule.id, server: server.uuid, task: task.sequenceId, action: task.action },
            `Schedule ${schedule.id} ("${schedule.name}") task ${task.sequenceId} (${task.action}) failed: ${message}`,
          );
          failure = { task: task.sequenceId, action: task.action, message };
        }
        if (!(await this.#writes.progress(token, schedule.id, task.id, true))) {
          holdsClaim = false;
          return;
        }
        if (failure && !task.continueOnFailure) {
          outcome = { event: 'server:schedule.fail', properties: { ...failure } };
          return;
        }
        if (failure) failures.push(failure);
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
        const end: RunEnd =
          retry && dueAt && !handedOver
            ? { kind: 'retry', dueAt }
            : { kind: handedOver || skippedOffline ? 'ran' : 'skipped' };
        const entry: ActivityEntry | null =
          end.kind === 'retry' || !outcome
            ? null
            : {
                event: outcome.event,
                ...unattendedActivity({ id: server.id }),
                properties: {
                  name: schedule.name,
                  manual,
                  ...(resumed ? { resumed: true } : {}),
                  ...outcome.properties,
                },
              };
        await this.#writes
          .complete(token, schedule.id, end, entry)
          .catch((error: unknown) =>
            this.deps.log.error(
              { err: error, schedule: schedule.id },
              `Could not mark schedule ${schedule.id} as done; it is taken over when its claim lapses`,
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

  /**
   * Whether the node's daemon answers at all (`GET /api/system`; any answer counts, even an error), asked once a
   * second per node however many runs start. A run does not start on a node that does not answer: nothing would
   * be handed over, and a cron run is tried again at the next tick.
   */
  #nodeAnswers(node: NodeRecord): Promise<boolean> {
    const now = this.deps.clock().getTime();
    const key = `node:${node.id}`;
    const cached = this.#serverStates.get(key);
    if (cached && cached.until > now) return cached.online;
    const answers = this.#gate
      .run(() => this.deps.daemon.system(node))
      .then(
        () => this.#silentNodes.delete(node.id) || true,
        (error: unknown) => {
          if (!(error instanceof DaemonUnreachableError)) return this.#silentNodes.delete(node.id) || true;
          // Said once until it answers again, not at every tick.
          if (this.#silentNodes.has(node.id)) return false;
          if (this.#silentNodes.size > 10_000) this.#silentNodes.clear();
          this.#silentNodes.add(node.id);
          this.deps.log.warn(
            { node: node.id },
            `Node ${node.id} ("${node.name}") did not answer (${error.message}): the schedules due on it wait for it, each up to ${Math.round(this.options.maxLatenessMs / 60_000)} minutes late`,
          );
          return false;
        },
      );
    if (this.#serverStates.size > 10_000) this.#serverStates.clear();
    this.#serverStates.set(key, { until: now + SERVER_STATE_TTL_MS, online: answers });
    return answers;
  }

  #background(write: Promise<void>) {
    write.catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'Could not mark the queued task of a running schedule'),
    );
  }
}

const messageOf = (error: unknown) =>
  (error as { detail?: string }).detail ?? (error instanceof Error ? error.message : String(error));
