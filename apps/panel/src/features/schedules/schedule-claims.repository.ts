import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import { type ScheduleRecord, scheduleColumns, toScheduleRecord } from './schedule-record';
import { chunks } from './schedules.repository';

/**
 * The worker's SQL. A run holds its schedule by a claim (`claimed_by`, `lease_until`) taken in one UPDATE whose
 * WHERE requires the schedule to be idle (`is_processing` false): however many panels run the same UPDATE at once
 * on PostgreSQL, MySQL/MariaDB or SQLite, the database lets exactly one of them change each row, so a schedule is
 * never run twice. Every later write of the run names its claim, so a run whose claim was taken away (a lapsed
 * lease, `is_active` switched) changes nothing.
 */

/** A claimed schedule with what its run needs of the server. */
export interface ClaimedSchedule {
  schedule: ScheduleRecord;
  server: { id: number; uuid: string; status: string | null; nodeId: number };
}

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
    .set({ is_processing: true, claimed_by: claim.token, lease_until: claim.leaseUntil })
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
    .set({ is_processing: true, claimed_by: claim.token, lease_until: claim.leaseUntil })
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
 * `lastRunAt` when the run did run (a schedule skipped because its server was suspended keeps its last run).
 */
export async function completeRuns(
  tx: Tx,
  runs: { token: string; ids: readonly number[]; lastRunAt: Date | null },
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

/** Schedules in Processing whose claim lapsed at `now`: their runner died, or lost the database for too long. */
export async function expiredClaims(db: Db, now: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('schedules')
    .select('id')
    .where('is_processing', '=', true)
    .where((eb) => eb.or([eb('lease_until', '<', now), eb('lease_until', 'is', null)]))
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Frees those schedules (checking again that their claim lapsed, as another panel may have freed and claimed one
 * since): idle, claim dropped, none of their tasks queued. A schedule whose next run has passed meanwhile is then
 * due, and runs at the next tick.
 * @returns how many it freed
 */
export async function releaseExpiredClaims(db: Db, ids: readonly number[], now: Date): Promise<number> {
  let released = 0;
  for (const chunk of chunks(ids)) {
    released += await db.transaction().execute(async (tx) => {
      const expired = (
        await tx
          .selectFrom('schedules')
          .select('id')
          .where('id', 'in', chunk)
          .where('is_processing', '=', true)
          .where((eb) => eb.or([eb('lease_until', '<', now), eb('lease_until', 'is', null)]))
          .execute()
      ).map((row) => row.id);
      if (expired.length === 0) return 0;
      await tx.updateTable('tasks').set({ is_queued: false }).where('schedule_id', 'in', expired).execute();
      const result = await tx
        .updateTable('schedules')
        .set({ is_processing: false, claimed_by: null, lease_until: null })
        .where('id', 'in', expired)
        .where('is_processing', '=', true)
        .where((eb) => eb.or([eb('lease_until', '<', now), eb('lease_until', 'is', null)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }
  return released;
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
