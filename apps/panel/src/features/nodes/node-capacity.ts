import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import { committedResources } from '@aerie/panel/features/servers/servers.repository';
import { type ApplicationNode, findPublicNodes, lockNodeRow } from './nodes.repository';

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
export const committedOn = (db: Db | Tx, nodeId: number, exceptServerId?: number) =>
  committedResources(db, nodeId, exceptServerId);

/**
 * Locks the node's row for the rest of the transaction, so two servers placed on it at once are checked one after
 * the other (SQLite runs one write transaction at a time already and has no FOR UPDATE). Returns its capacity.
 */
export async function lockNode(tx: Tx, nodeId: number): Promise<NodeCapacity | null> {
  const row = await lockNodeRow(tx, nodeId);
  return row
    ? {
        memory: row.memory,
        memoryOverallocate: row.memory_overallocate,
        disk: row.disk,
        diskOverallocate: row.disk_overallocate,
      }
    : null;
}

/**
 * Upstream's FindViableNodesService: public nodes (maintenance mode not considered), optionally only in
 * `locationIds`, whose servers' memory and disk plus the request stay within capacity × (1 + overallocate/100),
 * for memory and disk alike; an overallocation of -1 is taken literally (99 %), as upstream's formula does.
 * Checked here rather than in SQL so the arithmetic is exact on every database; nodes are few.
 */
export async function findViableNodes(
  db: Db,
  request: { memory: number; disk: number; locationIds?: number[] | undefined },
): Promise<ApplicationNode[]> {
  const nodes = await findPublicNodes(db, request.locationIds);
  return nodes
    .filter(
      (node) =>
        withinCapacity(node.allocated.memory, request.memory, node.memory, node.memoryOverallocate) &&
        withinCapacity(node.allocated.disk, request.disk, node.disk, node.diskOverallocate),
    )
    .map((node) => ({ ...node, deployable: true }));
}
