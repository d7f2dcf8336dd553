import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readCount, readDate } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Database } from '@aerie/panel/db/schema';
import type { Tx } from '@aerie/panel/db/transaction';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { ExpressionBuilder } from 'kysely';
import { type BackupRecord, toBackupRecord } from './backup-record';

/** SQL of backups: a server's own, the limit and throttle counts, and the daemon's reports. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Not failed: running (no completion yet) or successful — what the limit and `backup_count` count. */
const notFailed = (eb: ExpressionBuilder<Database, 'backups'>) =>
  eb.or([eb('backups.completed_at', 'is', null), eb('backups.is_successful', '=', true)]);

/** One of the server's backups, by uuid; deleted, another server's or no backup is undefined. */
export async function findServerBackup(
  db: Db | Tx,
  serverId: number,
  uuid: string | undefined,
): Promise<BackupRecord | undefined> {
  if (!uuid || !UUID.test(uuid)) return undefined;
  const row = await db
    .selectFrom('backups')
    .selectAll()
    .where('uuid', '=', uuid.toLowerCase())
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toBackupRecord(row) : undefined;
}

/**
 * A backup (not deleted) of a server on `nodeId`, with its server: what the node's daemon may report on. Another
 * node's backup is undefined, like one that does not exist (CVE-2026-26016).
 */
export async function findNodeBackup(db: Db | Tx, nodeId: number, uuid: string) {
  if (!UUID.test(uuid)) return undefined;
  const row = await db
    .selectFrom('backups')
    .innerJoin('servers', 'servers.id', 'backups.server_id')
    .selectAll('backups')
    .select(['servers.uuid as server_uuid', 'servers.status as server_status'])
    .where('backups.uuid', '=', uuid.toLowerCase())
    .where('servers.node_id', '=', nodeId)
    .where('backups.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { server_uuid, server_status, ...backup } = row;
  return {
    backup: toBackupRecord(backup),
    server: { id: backup.server_id, uuid: server_uuid, status: server_status },
  };
}

/** A page of the server's backups, oldest first (upstream's order), and how many it has. */
export async function pageOfServerBackups(db: Db, serverId: number, page: number, perPage: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('backups')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    db
      .selectFrom('backups')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('server_id', '=', serverId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { records: rows.map(toBackupRecord), total: readCount(count.count) };
}

/** The server's backups that are not deleted (its archives to remove when it goes). */
export async function liveServerBackups(db: Db | Tx, serverId: number): Promise<BackupRecord[]> {
  const rows = await db
    .selectFrom('backups')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map(toBackupRecord);
}

/** Backups not deleted and not failed: what the backup limit counts, and the page's `backup_count`. */
export async function countNonFailedBackups(db: Db | Tx, serverId: number): Promise<number> {
  const row = await db
    .selectFrom('backups')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .where(notFailed)
    .executeTakeFirstOrThrow();
  return readCount(row.count);
}

/**
 * Backups not failed that started since `since`, deleted ones included (upstream counts them with withTrashed):
 * what the creation throttle counts, with the oldest start among them.
 */
export async function throttledBackups(tx: Tx, serverId: number, since: Date) {
  const rows = await tx
    .selectFrom('backups')
    .select('created_at')
    .where('server_id', '=', serverId)
    .where('created_at', '>=', since)
    .where(notFailed)
    .orderBy('created_at')
    .execute();
  return { count: rows.length, oldest: rows[0] ? readDate(rows[0].created_at) : null };
}

/**
 * Locks the server's row until the transaction ends, so two requests counting or adding its backups (or starting
 * a restore) run one after the other (SQLite runs one write transaction at a time already and has no FOR UPDATE).
 */
export async function lockServerForBackups(tx: Tx, serverId: number) {
  let query = tx.selectFrom('servers').select(['backup_limit', 'status']).where('id', '=', serverId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

/** The server's oldest successful, unlocked backup: the one rotated out at the limit. */
export async function oldestRotatableBackup(tx: Tx, serverId: number): Promise<BackupRecord | undefined> {
  const row = await tx
    .selectFrom('backups')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .where('is_successful', '=', true)
    .where('is_locked', '=', false)
    .where('completed_at', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return row ? toBackupRecord(row) : undefined;
}

export interface NewBackup {
  serverId: number;
  uuid: string;
  name: string;
  ignoredFiles: string[];
  disk: string;
  isLocked: boolean;
}

export async function insertBackup(tx: Tx, values: NewBackup, now: Date): Promise<number> {
  return insertReturningId(
    tx,
    tx.insertInto('backups').values({
      server_id: values.serverId,
      uuid: values.uuid,
      name: values.name,
      ignored_files: JSON.stringify(values.ignoredFiles),
      disk: values.disk,
      is_locked: values.isLocked,
      is_successful: false,
      bytes: 0,
      created_at: now,
      updated_at: now,
    }),
  );
}

export async function findBackupById(db: Db | Tx, id: number): Promise<BackupRecord | undefined> {
  const row = await db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toBackupRecord(row) : undefined;
}

/** Locks the backup's row for a change that reads it first (the lock toggle). */
export async function lockBackupRow(tx: Tx, id: number): Promise<BackupRecord | undefined> {
  let query = tx.selectFrom('backups').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toBackupRecord(row) : undefined;
}

export async function setBackupLocked(tx: Tx, id: number, locked: boolean, now: Date): Promise<void> {
  await tx.updateTable('backups').set({ is_locked: locked, updated_at: now }).where('id', '=', id).execute();
}

/** @returns false when the backup was deleted already (by a request that got there first) */
export async function softDeleteBackup(tx: Tx, id: number, now: Date): Promise<boolean> {
  const result = await tx
    .updateTable('backups')
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Ends a running backup as failed (unlocked, so it can be deleted); one that ended meanwhile is left as it is.
 * @returns whether it was still running
 */
export async function markBackupFailed(db: Db | Tx, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('backups')
    .set({
      is_successful: false,
      is_locked: false,
      checksum: null,
      bytes: 0,
      completed_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What the node reported at the end of a backup (upstream's BackupStatusController). */
export async function recordBackupResult(
  db: Db | Tx,
  backup: BackupRecord,
  result: { successful: boolean; checksum: string | null; bytes: number },
  now: Date,
): Promise<void> {
  await db
    .updateTable('backups')
    .set({
      is_successful: result.successful,
      // A failed backup is unlocked, so it can be deleted.
      is_locked: result.successful ? backup.isLocked : false,
      checksum: result.successful ? result.checksum : null,
      bytes: result.successful ? result.bytes : 0,
      upload_id: null,
      completed_at: now,
      updated_at: now,
    })
    .where('id', '=', backup.id)
    .execute();
}

export async function setBackupUploadId(db: Db | Tx, id: number, uploadId: string | null, now: Date) {
  await db
    .updateTable('backups')
    .set({ upload_id: uploadId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Running backups started before `cutoff` (all, without one; of one node's servers, when `nodeId` is given). */
export async function staleRunningBackups(db: Db, cutoff: Date | undefined, limit: number, nodeId?: number) {
  let query = db
    .selectFrom('backups')
    .innerJoin('servers', 'servers.id', 'backups.server_id')
    .selectAll('backups')
    .select('servers.uuid as server_uuid')
    .where('backups.completed_at', 'is', null);
  if (cutoff !== undefined) query = query.where('backups.created_at', '<', cutoff);
  if (nodeId !== undefined) query = query.where('servers.node_id', '=', nodeId);
  const rows = await query.orderBy('backups.created_at').limit(limit).execute();
  return rows.map(({ server_uuid, ...row }) => ({
    backup: toBackupRecord(row),
    serverUuid: server_uuid,
    serverId: row.server_id,
  }));
}

/** The node's servers in the middle of a restore, with the name of the backup last asked to be restored. */
export async function restoringServersOfNode(db: Db, nodeId: number) {
  const servers = await db
    .selectFrom('servers')
    .select('id')
    .where('node_id', '=', nodeId)
    .where('status', '=', 'restoring_backup')
    .execute();
  const restoring: { serverId: number; backupName: string }[] = [];
  for (const { id } of servers) {
    const last = await db
      .selectFrom('activity_logs')
      .select('properties')
      .where('server_id', '=', id)
      .where('event', '=', 'server:backup.restore')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    restoring.push({ serverId: id, backupName: backupNameOf(last?.properties) });
  }
  return restoring;
}

function backupNameOf(properties: unknown): string {
  try {
    const parsed = typeof properties === 'string' ? (JSON.parse(properties) as unknown) : properties;
    const name = (parsed as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

/**
 * Sets the server's status to `restoring_backup` when it has none, in one statement, so of two restores only one
 * starts.
 * @returns whether this call set it
 */
export async function startRestoring(tx: Tx, serverId: number, now: Date): Promise<boolean> {
  const result = await tx
    .updateTable('servers')
    .set({ status: 'restoring_backup', updated_at: now })
    .where('id', '=', serverId)
    .where('status', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Clears `restoring_backup` (and no other status) from the server. */
export async function endRestoring(db: Db | Tx, serverId: number, now: Date): Promise<void> {
  await db
    .updateTable('servers')
    .set({ status: null, updated_at: now })
    .where('id', '=', serverId)
    .where('status', '=', 'restoring_backup')
    .execute();
}

/**
 * The node a server left in its first successful transfer begun after `madeAt`: where a local backup made then
 * still lies (local backups stay on the node that made them). Undefined when the server has not moved since.
 */
export async function nodeLeftAfter(db: Db, serverId: number, madeAt: Date): Promise<NodeRecord | undefined> {
  const row = await db
    .selectFrom('server_transfers')
    .innerJoin('nodes', 'nodes.id', 'server_transfers.old_node')
    .selectAll('nodes')
    .where('server_transfers.server_id', '=', serverId)
    .where('server_transfers.successful', '=', true)
    .where('server_transfers.created_at', '>', madeAt)
    .orderBy('server_transfers.created_at')
    .orderBy('server_transfers.id')
    .limit(1)
    .executeTakeFirst();
  return row ? toNodeRecord(row) : undefined;
}
