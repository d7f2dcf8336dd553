import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { releaseAllAllocations } from '@aerie/panel/features/nodes/server-allocations';
import { deleteServerRow } from './servers.repository';

/**
 * Removes a server's rows in one transaction: its allocations are given back, then the row goes, and with it (by
 * foreign key) its variables, subusers, schedules, backups' rows and databases' rows.
 */
export async function deleteServerRows(db: Db, serverId: number, now: Date) {
  await db.transaction().execute((tx) => removeServerRows(tx, serverId, now));
}

/** The same inside the caller's transaction (which records the deletion with it). */
export async function removeServerRows(tx: Tx, serverId: number, now: Date) {
  await releaseAllAllocations(tx, serverId, now);
  await deleteServerRow(tx, serverId);
}
