import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import { type TransferRecord, toTransferRecord } from './transfer-record';

/** All of the transfers feature's SQL. */

const running = (db: Db | Tx) =>
  db.selectFrom('server_transfers').selectAll().where('successful', 'is', null);

/** The server's running transfer, if any (there is at most one). */
export async function runningTransferOf(db: Db | Tx, serverId: number): Promise<TransferRecord | null> {
  const row = await running(db).where('server_id', '=', serverId).orderBy('id', 'desc').executeTakeFirst();
  return row ? toTransferRecord(row) : null;
}

/** Whether the server ever had a transfer from or to this node. */
export async function hadTransferWithNode(db: Db, serverId: number, nodeId: number): Promise<boolean> {
  const row = await db
    .selectFrom('server_transfers')
    .select('id')
    .where('server_id', '=', serverId)
    .where((eb) => eb.or([eb('old_node', '=', nodeId), eb('new_node', '=', nodeId)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Running transfers from or to this node, with their server's uuid. */
export async function runningTransfersOfNode(db: Db, nodeId: number) {
  return withUuids(
    db,
    await running(db)
      .where((eb) => eb.or([eb('old_node', '=', nodeId), eb('new_node', '=', nodeId)]))
      .orderBy('id')
      .execute(),
  );
}

/** Every running transfer, with its server's uuid. */
export async function allRunningTransfers(db: Db) {
  return withUuids(db, await running(db).orderBy('id').execute());
}

async function withUuids(db: Db, rows: Parameters<typeof toTransferRecord>[0][]) {
  if (rows.length === 0) return [];
  const servers = await db
    .selectFrom('servers')
    .select(['id', 'uuid'])
    .where('id', 'in', [...new Set(rows.map((row) => row.server_id))])
    .execute();
  const uuids = new Map(servers.map((server) => [server.id, server.uuid]));
  return rows.map((row) => ({ transfer: toTransferRecord(row), uuid: uuids.get(row.server_id) ?? '' }));
}

/** The latest transfer (highest id) of each of these servers that has one. */
export async function latestTransfersOf(db: Db, serverIds: readonly number[]) {
  if (serverIds.length === 0) return new Map<number, TransferRecord>();
  const rows = await db
    .selectFrom('server_transfers')
    .selectAll()
    .where('server_id', 'in', [...new Set(serverIds)])
    .orderBy('id')
    .execute();
  return new Map(rows.map((row) => [row.server_id, toTransferRecord(row)]));
}

/** A server by uuid: what a daemon's report is checked against. */
export async function serverByUuid(db: Db, uuid: string) {
  return db
    .selectFrom('servers')
    .select(['id', 'uuid', 'node_id'])
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/**
 * Locks the server's row for the rest of the transaction (SQLite runs one write transaction at a time and has no
 * FOR UPDATE), so two transfers of one server are decided one after the other; returns what the checks read.
 */
export async function lockServerForTransfer(tx: Tx, serverId: number) {
  let query = tx
    .selectFrom('servers')
    .select(['id', 'uuid', 'node_id', 'allocation_id', 'status', 'memory', 'disk'])
    .where('id', '=', serverId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** These allocations as they stand: their node and holder. */
export async function allocationsByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('allocations')
    .select(['id', 'node_id', 'server_id'])
    .where('id', 'in', [...ids])
    .execute();
}

/** The ids of the server's allocations on a node other than `primaryId`, in id order. */
export async function additionalAllocationIds(tx: Tx, serverId: number, nodeId: number, primaryId: number) {
  const rows = await tx
    .selectFrom('allocations')
    .select('id')
    .where('server_id', '=', serverId)
    .where('node_id', '=', nodeId)
    .where('id', '!=', primaryId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function insertTransfer(
  tx: Tx,
  values: {
    serverId: number;
    oldNode: number;
    newNode: number;
    oldAllocation: number;
    newAllocation: number;
    oldAdditional: number[];
    newAdditional: number[];
  },
  now: Date,
): Promise<void> {
  await tx
    .insertInto('server_transfers')
    .values({
      server_id: values.serverId,
      successful: null,
      old_node: values.oldNode,
      new_node: values.newNode,
      old_allocation: values.oldAllocation,
      new_allocation: values.newAllocation,
      old_additional_allocations: JSON.stringify(values.oldAdditional),
      new_additional_allocations: JSON.stringify(values.newAdditional),
      archived: false,
      failure: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * Ends a running transfer; false when it had already ended (another report, a cancel or a restart got there
 * first), so every ending happens once.
 */
export async function endTransfer(
  tx: Tx,
  id: number,
  outcome: { successful: boolean; failure: string | null },
  now: Date,
): Promise<boolean> {
  const result = await tx
    .updateTable('server_transfers')
    .set({
      successful: outcome.successful,
      failure: outcome.failure,
      // Pterodactyl's archived: the transfer's record is closed with the server's move.
      ...(outcome.successful ? { archived: true } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .where('successful', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Frees those of `ids` the server holds on the node (their notes kept: the server never used them). */
export async function freeHeldAllocations(
  tx: Tx,
  serverId: number,
  nodeId: number,
  ids: readonly number[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .updateTable('allocations')
    .set({ server_id: null, updated_at: now })
    .where('id', 'in', [...ids])
    .where('server_id', '=', serverId)
    .where('node_id', '=', nodeId)
    .execute();
}

/** Frees every allocation the server holds on the node it left, their notes with them. */
export async function freeAllocationsLeftBehind(tx: Tx, serverId: number, nodeId: number, now: Date) {
  await tx
    .updateTable('allocations')
    .set({ server_id: null, notes: null, updated_at: now })
    .where('server_id', '=', serverId)
    .where('node_id', '=', nodeId)
    .execute();
}
