import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import type { AllocationRecord } from '@aerie/panel/features/servers/server-relations';

/** SQL of the Network page: a server's own allocations and the node's free ones. */

const columns = ['id', 'ip', 'ip_alias', 'port', 'notes'] as const;

const toRecord = (row: {
  id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  notes: string | null;
}): AllocationRecord => ({
  id: row.id,
  ip: row.ip,
  ipAlias: row.ip_alias,
  port: Number(row.port),
  notes: row.notes,
});

/** The server's allocations, oldest first (the order the page lists them in). */
export async function listServerAllocations(db: Db | Tx, serverId: number): Promise<AllocationRecord[]> {
  const rows = await db
    .selectFrom('allocations')
    .select(columns)
    .where('server_id', '=', serverId)
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/** One allocation of the server; another server's (or no) allocation is undefined. */
export async function findServerAllocation(
  db: Db | Tx,
  serverId: number,
  allocationId: string | undefined,
): Promise<AllocationRecord | undefined> {
  if (!allocationId || !/^\d{1,10}$/.test(allocationId)) return undefined;
  const row = await db
    .selectFrom('allocations')
    .select(columns)
    .where('id', '=', Number(allocationId))
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/**
 * Locks the server's row until the transaction ends, so two requests counting or changing its allocations run one
 * after the other (SQLite runs one write transaction at a time already and has no FOR UPDATE).
 * @returns what the checks need from the row as it is now
 */
export async function lockServerRow(tx: Tx, serverId: number) {
  let query = tx
    .selectFrom('servers')
    .select(['allocation_id', 'allocation_limit', 'node_id'])
    .where('id', '=', serverId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function countServerAllocations(tx: Tx, serverId: number): Promise<number> {
  const row = await tx
    .selectFrom('allocations')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('server_id', '=', serverId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Ports of the node's address inside the range: every one in use or assigned, and the free allocation rows. */
export async function allocationsInRange(
  tx: Tx,
  where: { nodeId: number; ip: string; from: number; to: number },
): Promise<{ id: number; port: number; serverId: number | null }[]> {
  const rows = await tx
    .selectFrom('allocations')
    .select(['id', 'port', 'server_id'])
    .where('node_id', '=', where.nodeId)
    .where('ip', '=', where.ip)
    .where('port', '>=', where.from)
    .where('port', '<=', where.to)
    .execute();
  return rows.map((row) => ({ id: row.id, port: Number(row.port), serverId: row.server_id }));
}

/** Gives a free allocation to the server; false when another server took it first. */
export async function claimAllocation(tx: Tx, allocationId: number, serverId: number, now: Date) {
  const result = await tx
    .updateTable('allocations')
    .set({ server_id: serverId, updated_at: now })
    .where('id', '=', allocationId)
    .where('server_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The address of an allocation (the server's primary: its new allocations share it). */
export async function allocationIp(tx: Db | Tx, allocationId: number): Promise<string> {
  const row = await tx
    .selectFrom('allocations')
    .select('ip')
    .where('id', '=', allocationId)
    .executeTakeFirstOrThrow();
  return row.ip;
}

/**
 * A new allocation of the node, given to the server. @returns its id
 * @throws the driver's unique-violation error when the address and port exist already
 */
export function insertServerAllocation(
  tx: Db | Tx,
  allocation: { nodeId: number; ip: string; port: number; serverId: number },
  now: Date,
): Promise<number> {
  return insertReturningId(
    tx,
    tx.insertInto('allocations').values({
      node_id: allocation.nodeId,
      ip: allocation.ip,
      port: allocation.port,
      server_id: allocation.serverId,
      created_at: now,
      updated_at: now,
    }),
  );
}

/** Sets the notes of the server's allocation (none when it is not the server's). */
export async function updateAllocationNotes(
  tx: Db | Tx,
  serverId: number,
  allocationId: number,
  notes: string | null,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('allocations')
    .set({ notes, updated_at: now })
    .where('id', '=', allocationId)
    .where('server_id', '=', serverId)
    .execute();
}

/** Gives the server's allocation back to its node, notes cleared (the row stays for the next server). */
export async function releaseServerAllocation(
  tx: Db | Tx,
  serverId: number,
  allocationId: number,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('allocations')
    .set({ server_id: null, notes: null, updated_at: now })
    .where('id', '=', allocationId)
    .where('server_id', '=', serverId)
    .execute();
}

/** The server's primary allocation id as stored now. */
export async function primaryAllocationId(db: Db | Tx, serverId: number): Promise<number> {
  const row = await db
    .selectFrom('servers')
    .select('allocation_id')
    .where('id', '=', serverId)
    .executeTakeFirstOrThrow();
  return row.allocation_id;
}
