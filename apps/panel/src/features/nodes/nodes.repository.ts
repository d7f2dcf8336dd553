import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readDate } from '@aerie/panel/db/dialect';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { withinCapacity } from './node-capacity';
import type { NodeRow } from './nodes.service';

/** SQL for the Application API's view of nodes (reference application API §3.3). */

/** A node as the Application API shows it; the daemon token stays in the database. */
export interface ApplicationNode {
  id: number;
  uuid: string;
  public: boolean;
  name: string;
  description: string | null;
  locationId: number | null;
  fqdn: string;
  scheme: string;
  behindProxy: boolean;
  maintenanceMode: boolean;
  memory: number;
  memoryOverallocate: number;
  disk: number;
  diskOverallocate: number;
  uploadSize: number;
  daemonListen: number;
  daemonSftp: number;
  daemonBase: string;
  createdAt: Date;
  updatedAt: Date;
  /** Sums of `memory` and `disk` over the node's servers (`allocated_resources`). */
  allocated: { memory: number; disk: number };
  /** Set by nodes/deployable only: upstream's extra `sum_memory` / `sum_disk` columns of that query. */
  deployable?: boolean;
}

export const nodeListSpec = {
  filters: {
    uuid: { column: 'nodes.uuid' },
    name: { column: 'nodes.name' },
    fqdn: { column: 'nodes.fqdn' },
    daemon_token_id: { column: 'nodes.daemon_token_id' },
  },
  sorts: { id: 'nodes.id', uuid: 'nodes.uuid', memory: 'nodes.memory', disk: 'nodes.disk' },
} as const;

function toApplicationNode(row: NodeRow, allocated: { memory: number; disk: number }): ApplicationNode {
  return {
    id: row.id,
    uuid: row.uuid,
    public: readBool(row.public),
    name: row.name,
    description: row.description,
    locationId: row.location_id,
    fqdn: row.fqdn,
    scheme: row.scheme,
    behindProxy: readBool(row.behind_proxy),
    maintenanceMode: readBool(row.maintenance_mode),
    memory: Number(row.memory),
    memoryOverallocate: Number(row.memory_overallocate),
    disk: Number(row.disk),
    diskOverallocate: Number(row.disk_overallocate),
    uploadSize: Number(row.upload_size),
    daemonListen: Number(row.daemon_listen),
    daemonSftp: Number(row.daemon_sftp),
    daemonBase: row.daemon_base,
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
    allocated,
  };
}

/** Memory and disk of each node's servers, summed, in one query. */
export async function allocatedResources(db: Db, nodeIds: number[]) {
  const sums = new Map<number, { memory: number; disk: number }>();
  if (nodeIds.length === 0) return sums;
  const rows = await db
    .selectFrom('servers')
    .select((eb) => [
      'node_id',
      eb.fn.sum<number | string>('memory').as('memory'),
      eb.fn.sum<number | string>('disk').as('disk'),
    ])
    .where('node_id', 'in', [...new Set(nodeIds)])
    .groupBy('node_id')
    .execute();
  for (const row of rows) {
    sums.set(row.node_id, { memory: Number(row.memory ?? 0), disk: Number(row.disk ?? 0) });
  }
  return sums;
}

/** Rows as Application API nodes, their allocated resources loaded together. */
export async function toApplicationNodes(db: Db, rows: NodeRow[]): Promise<ApplicationNode[]> {
  const sums = await allocatedResources(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toApplicationNode(row, sums.get(row.id) ?? { memory: 0, disk: 0 }));
}

export async function listNodes(db: Db, list: ListQuery) {
  const { rows, total } = await runList(dialectOf(db), db.selectFrom('nodes').selectAll(), list, 'nodes.id');
  return { rows: await toApplicationNodes(db, rows), total };
}

export async function findNodeRow(db: Db, id: number): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findNode(db: Db, id: number): Promise<ApplicationNode | null> {
  const row = await findNodeRow(db, id);
  return row ? ((await toApplicationNodes(db, [row]))[0] ?? null) : null;
}

export async function findNodes(db: Db, ids: number[]): Promise<ApplicationNode[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('nodes')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .orderBy('id')
    .execute();
  return toApplicationNodes(db, rows);
}

export async function findNodesInLocations(db: Db, locationIds: number[]): Promise<ApplicationNode[]> {
  if (locationIds.length === 0) return [];
  const rows = await db
    .selectFrom('nodes')
    .selectAll()
    .where('location_id', 'in', [...new Set(locationIds)])
    .orderBy('id')
    .execute();
  return toApplicationNodes(db, rows);
}

/** `used + requested ≤ capacity × (1 + overallocate / 100)`, in integers (no rounding at the edge). */

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
  let query = db.selectFrom('nodes').selectAll().where('public', '=', true);
  if (request.locationIds && request.locationIds.length > 0) {
    query = query.where('location_id', 'in', [...new Set(request.locationIds)]);
  }
  const nodes = await toApplicationNodes(db, await query.orderBy('id').execute());
  return nodes
    .filter(
      (node) =>
        withinCapacity(node.allocated.memory, request.memory, node.memory, node.memoryOverallocate) &&
        withinCapacity(node.allocated.disk, request.disk, node.disk, node.diskOverallocate),
    )
    .map((node) => ({ ...node, deployable: true }));
}
