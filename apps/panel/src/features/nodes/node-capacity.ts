import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readCount } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';

/**
 * A node's memory and disk as deployment reads them (reference application API §4.3): what its servers have
 * been given (a server with 0 = unlimited counts 0) against capacity × (1 + overallocate / 100). Upstream's
 * query gives −1 no special meaning (99 %), and neither does this.
 */
export interface NodeCapacity {
  memory: number;
  memoryOverallocate: number;
  disk: number;
  diskOverallocate: number;
}

/** `used + requested ≤ capacity × (1 + overallocate / 100)`, in whole numbers so no rounding decides it. */
export const withinCapacity = (used: number, requested: number, capacity: number, overallocate: number) =>
  (used + requested) * 100 <= capacity * (100 + overallocate);

export const fits = (
  node: NodeCapacity,
  committed: { memory: number; disk: number },
  add: { memory: number; disk: number },
) =>
  withinCapacity(committed.memory, add.memory, node.memory, node.memoryOverallocate) &&
  withinCapacity(committed.disk, add.disk, node.disk, node.diskOverallocate);

/** Memory and disk given to the node's servers, leaving out `exceptServerId` (a server being resized). */
export async function committedOn(db: Db | Tx, nodeId: number, exceptServerId?: number) {
  let query = db
    .selectFrom('servers')
    .select((eb) => [
      eb.fn.sum<number | string>('memory').as('memory'),
      eb.fn.sum<number | string>('disk').as('disk'),
    ])
    .where('node_id', '=', nodeId);
  if (exceptServerId !== undefined) query = query.where('id', '!=', exceptServerId);
  const row = await query.executeTakeFirst();
  return { memory: readCount(row?.memory), disk: readCount(row?.disk) };
}

/**
 * Locks the node's row for the rest of the transaction, so two servers placed on it at once are checked one after
 * the other (SQLite runs one write transaction at a time already and has no FOR UPDATE). Returns its capacity.
 */
export async function lockNode(tx: Tx, nodeId: number): Promise<NodeCapacity | null> {
  let query = tx
    .selectFrom('nodes')
    .select(['memory', 'memory_overallocate', 'disk', 'disk_overallocate'])
    .where('id', '=', nodeId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row
    ? {
        memory: row.memory,
        memoryOverallocate: row.memory_overallocate,
        disk: row.disk,
        diskOverallocate: row.disk_overallocate,
      }
    : null;
}
