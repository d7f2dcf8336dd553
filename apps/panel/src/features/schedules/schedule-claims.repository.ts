import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readNullableDate } from '@aerie/panel/db/dialect';
import type { Database } from '@aerie/panel/db/schema';
import type { Tx } from '@aerie/panel/db/transaction';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import { type ExpressionBuilder, sql } from 'kysely';
import { type ScheduleRecord, scheduleColumns, toScheduleRecord } from './schedule-record';
import { chunks } from './schedules.repository';

/**
 * The worker's SQL. A run holds its schedule by a claim (`claimed_by`, `lease_until`) taken in one UPDATE whose
 * WHERE requires the schedule to be idle (`is_processing` false): however many panels run the same UPDATE at once
 * on PostgreSQL, MySQL/MariaDB or SQLite, the database lets exactly one of them change each row, so a schedule is
 * never run twice. Every later write of the run names its claim, so a run whose claim was taken away (a lapsed
 * lease, `is_active` switched) changes nothing. The claim carries the run's progress (`run_task_id`,
 * `run_task_sent`, `run_manual`, `run_due_at`), reset by the UPDATE that claims, so whoever takes over a claim whose
 * runner died knows where the run stood.
 */

/** A claimed schedule with what its run needs of the server, and how far its run got. */
export interface ClaimedSchedule {
  schedule: ScheduleRecord;
  server: { id: number; uuid: string; status: string | null; nodeId: number };
  progress: RunProgress;
}

/** Where the run holding a schedule stands (migration 0012), as recorded before and after each hand-over. */
export interface RunProgress {
  /** The task whose hand-over to the daemon began last; null while none has. */
  taskId: number | null;
  /** Whether the daemon answered that hand-over (false: the runner may have died while it was under way). */
  sent: boolean;
  manual: boolean;
  /** When a cron run was due; null for a run by hand (and for claims taken before migration 0012). */
  dueAt: Date | null;
}

/** A new claim's progress: no task handed over yet. */
const freshProgress = { run_task_id: null, run_task_sent: false, run_manual: false } as const;

/**
 * Claims up to `limit` active, idle schedules due at `now`, soonest first, for the run `token`.
 * @returns how many it claimed (fewer than `limit`: none are left due)
 */
export async function claimDueSchedules(
  db: Db,
  claim: { token: string; now: Date; leaseUntil: Date; limit: number },
): Promise<number> {
  let update = db
    .updateTable('schedules')
    .set({
      is_processing: true,
      claimed_by: claim.token,
      lease_until: claim.leaseUntil,
      ...freshProgress,
      // The row's own due time, as stored (the column types match in every dialect).
      run_due_at: sql<Date | null>`next_run_at`,
    })
    .where('is_active', '=', true)
    .where('is_processing', '=', false)
    .where('next_run_at', '<=', claim.now);
  const dialect = dialectOf(db);
  if (dialect === 'mysql') {
    // MySQL refuses LIMIT in an IN subquery on the table it updates, and takes ORDER BY/LIMIT on UPDATE itself.
    update = update.orderBy('next_run_at').limit(claim.limit);
  } else {
    update = update.where('id', 'in', (eb) => {
      const batch = eb
        .selectFrom('schedules')
        .select('id')
        .where('is_active', '=', true)
        .where('is_processing', '=', false)
        .where('next_run_at', '<=', claim.now)
        .orderBy('next_run_at')
        .limit(claim.limit);
      // PostgreSQL: panels claiming at once take different rows instead of queueing on each other's locks.
      return dialect === 'postgres' ? batch.forUpdate().skipLocked() : batch;
    });
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Claims one schedule for a run started by hand (Run Now), whatever `is_active` says, unless a run holds it.
 * @returns false when it is already processing
 */
export async function claimSchedule(
  tx: Tx,
  claim: { scheduleId: number; token: string; leaseUntil: Date },
): Promise<boolean> {
  const result = await tx
    .updateTable('schedules')
    .set({
      is_processing: true,
      claimed_by: claim.token,
      lease_until: claim.leaseUntil,
      ...freshProgress,
      run_manual: true,
      run_due_at: null,
    })
    .where('id', '=', claim.scheduleId)
    .where('is_processing', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The schedules the run `token` holds, with their servers. */
export async function claimedSchedules(db: Db, token: string): Promise<ClaimedSchedule[]> {
  const rows = await db
    .selectFrom('schedules')
    .innerJoin('servers', 'servers.id', 'schedules.server_id')
    .select([
      ...scheduleColumns,
      'servers.uuid as server_uuid',
      'servers.status as server_status',
      'servers.node_id as server_node_id',
      'schedules.run_task_id',
      'schedules.run_task_sent',
      'schedules.run_manual',
      'schedules.run_due_at',
    ])
    .where('schedules.claimed_by', '=', token)
    .execute();
  return rows.map((row) => ({
    schedule: toScheduleRecord(row),
    server: {
      id: row.server_id,
      uuid: row.server_uuid,
      status: row.server_status,
      nodeId: row.server_node_id,
    },
    progress: {
      taskId: row.run_task_id === null ? null : Number(row.run_task_id),
      sent: readBool(row.run_task_sent),
      manual: readBool(row.run_manual),
      dueAt: readNullableDate(row.run_due_at),
    },
  }));
}

export async function nodesById(db: Db, ids: readonly number[]): Promise<Map<number, NodeRecord>> {
  const nodes = new Map<number, NodeRecord>();
  for (const chunk of chunks([...new Set(ids)])) {
    const rows = await db.selectFrom('nodes').selectAll().where('id', 'in', chunk).execute();
    for (const row of rows) nodes.set(row.id, toNodeRecord(row));
  }
  return nodes;
}

/** Sets the next run of the schedules `ids` of the run `token` (upstream computes it when the run starts). */
export async function setNextRunAt(tx: Tx, token: string, ids: readonly number[], nextRunAt: Date) {
  for (const chunk of chunks(ids)) {
    await tx
      .updateTable('schedules')
      .set({ next_run_at: nextRunAt })
      .where('claimed_by', '=', token)
      .where('id', 'in', chunk)
      .execute();
  }
}

/** Marks tasks as waiting for their turn (`is_queued`) or not. */
export async function setTasksQueued(tx: Tx, taskIds: readonly number[], queued: boolean): Promise<void> {
  for (const chunk of chunks(taskIds)) {
    await tx.updateTable('tasks').set({ is_queued: queued }).where('id', 'in', chunk).execute();
  }
}

/**
 * Ends the runs of the schedules `ids` held by `token`: idle again, claim dropped, none of their tasks queued;
 * `lastRunAt` when the run did run (a schedule skipped because its server was suspended keeps its last run);
 * `nextRunAt` puts a run that could not start back to when it was due, so the next tick tries it again.
 */
export async function completeRuns(
  tx: Tx,
  runs: { token: string; ids: readonly number[]; lastRunAt: Date | null; nextRunAt?: Date },
): Promise<void> {
  for (const chunk of chunks(runs.ids)) {
    // Only while the run still holds the schedule: another run may have taken it since (is_active switched).
    await tx
      .updateTable('tasks')
      .set({ is_queued: false })
      .where('schedule_id', 'in', (eb) =>
        eb.selectFrom('schedules').select('id').where('claimed_by', '=', runs.token).where('id', 'in', chunk),
      )
      .where('is_queued', '=', true)
      .execute();
    await tx
      .updateTable('schedules')
      .set({
        is_processing: false,
        claimed_by: null,
        lease_until: null,
        ...(runs.lastRunAt ? { last_run_at: runs.lastRunAt } : {}),
        ...(runs.nextRunAt ? { next_run_at: runs.nextRunAt } : {}),
      })
      .where('claimed_by', '=', runs.token)
      .where('id', 'in', chunk)
      .execute();
  }
}

/** Pushes back the lease of every schedule the runs `tokens` still hold. */
export async function renewLeases(db: Db, tokens: readonly string[], leaseUntil: Date): Promise<void> {
  for (const chunk of chunks(tokens)) {
    await db
      .updateTable('schedules')
      .set({ lease_until: leaseUntil })
      .where('claimed_by', 'in', chunk)
      .execute();
  }
}

/** A run's progress to record: the hand-over of `taskId` begins (`sent` false), or the daemon answered it. */
export interface ProgressWrite {
  token: string;
  scheduleId: number;
  taskId: number;
  sent: boolean;
}

/**
 * Records runs' progress on their schedules, only where the run still holds its schedule: per run token and
 * `sent`, one UPDATE (a CASE picks each schedule's task) and one SELECT of the schedules still held, however many
 * runs hand a task over at the same moment.
 * @returns the schedules whose run still holds them (one that lost its claim must hand nothing more over)
 */
export async function recordProgress(tx: Tx, writes: readonly ProgressWrite[]): Promise<Set<number>> {
  const groups = new Map<string, { token: string; sent: boolean; tasks: Map<number, number> }>();
  for (const write of writes) {
    const key = `${write.sent ? 1 : 0}${write.token}`;
    const group = groups.get(key) ?? { token: write.token, sent: write.sent, tasks: new Map() };
    group.tasks.set(write.scheduleId, write.taskId);
    groups.set(key, group);
  }
  const held = new Set<number>();
  for (const { token, sent, tasks } of groups.values()) {
    for (const ids of chunks([...tasks.keys()])) {
      // Ids from the database, written as literals: 1,000 schedules cost no bound values beyond the IN list.
      const taskOf = sql<number>`case id ${sql.join(
        ids.map((id) => sql`when ${sql.lit(Math.trunc(id))} then ${sql.lit(Math.trunc(tasks.get(id) ?? 0))}`),
        sql` `,
      )} end`;
      await tx
        .updateTable('schedules')
        .set({ run_task_id: taskOf, run_task_sent: sent })
        .where('claimed_by', '=', token)
        .where('id', 'in', ids)
        .execute();
      const rows = await tx
        .selectFrom('schedules')
        .select('id')
        .where('claimed_by', '=', token)
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) held.add(row.id);
    }
  }
  return held;
}

/**
 * Takes over, for the run `token`, up to `limit` claims whose lease lapsed at `now` (their runner died, or lost
 * the database for longer than the lease), keeping their progress. The lapse is checked by the UPDATE itself, and
 * the new lease is in the future, so of several panels taking over at once exactly one gets each run.
 * @returns how many it took over
 */
export async function adoptLapsedClaims(
  db: Db,
  adoption: { token: string; now: Date; leaseUntil: Date; limit: number },
): Promise<number> {
  const lapsed = (
    eb: ExpressionBuilder<Database, 'schedules'>, // the same test inside and outside the batch
  ) =>
    eb.and([
      eb('is_processing', '=', true),
      eb.or([eb('lease_until', '<', adoption.now), eb('lease_until', 'is', null)]),
    ]);
  let update = db
    .updateTable('schedules')
    .set({ claimed_by: adoption.token, lease_until: adoption.leaseUntil })
    .where(lapsed);
  const dialect = dialectOf(db);
  if (dialect === 'mysql') {
    update = update.orderBy('id').limit(adoption.limit);
  } else {
    update = update.where('id', 'in', (eb) => {
      const batch = eb.selectFrom('schedules').select('id').where(lapsed).orderBy('id').limit(adoption.limit);
      return dialect === 'postgres' ? batch.forUpdate().skipLocked() : batch;
    });
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Takes over, for the run `token`, every claim of the runner `runnerId` (claims are named `<runner>:…`), lease or
 * not: the caller knows that runner is dead (this panel's previous life, see runner-identity.ts).
 * @returns how many it took over
 */
export async function adoptClaimsOf(
  db: Db,
  adoption: { runnerId: string; token: string; leaseUntil: Date },
): Promise<number> {
  if (!/^[0-9a-f]+$/.test(adoption.runnerId)) return 0;
  const result = await db
    .updateTable('schedules')
    .set({ claimed_by: adoption.token, lease_until: adoption.leaseUntil })
    .where('is_processing', '=', true)
    .where('claimed_by', 'like', `${adoption.runnerId}:%`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What a run checks before each later task: still active, still its claim, the server's status. */
export interface RunState {
  isActive: boolean;
  claimedBy: string | null;
  serverStatus: string | null;
}

export async function runStates(db: Db, ids: readonly number[]): Promise<Map<number, RunState>> {
  const states = new Map<number, RunState>();
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom('schedules')
      .innerJoin('servers', 'servers.id', 'schedules.server_id')
      .select(['schedules.id', 'schedules.is_active', 'schedules.claimed_by', 'servers.status'])
      .where('schedules.id', 'in', chunk)
      .execute();
    for (const row of rows) {
      states.set(row.id, {
        isActive: readBool(row.is_active),
        claimedBy: row.claimed_by,
        serverStatus: row.status,
      });
    }
  }
  return states;
}
