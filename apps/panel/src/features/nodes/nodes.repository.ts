import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readDate } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { NodesTable } from '@aerie/panel/db/schema-servers';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { type NodeRecord, toNodeRecord } from './node-record';

/** SQL for the nodes table: the Application API's view of nodes (reference application API §3.3) and the rest. */

export type NodeRow = Selectable<NodesTable>;

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

/** A node as the daemon client and the services take it, or null. */
export async function findNodeRecord(db: Db, id: number): Promise<NodeRecord | null> {
  const row = await findNodeRow(db, id);
  return row ? toNodeRecord(row) : null;
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

/** Public nodes, only those in `locationIds` when some are given, in id order (nodes/deployable's candidates). */
export async function findPublicNodes(db: Db, locationIds?: number[]): Promise<ApplicationNode[]> {
  let query = db.selectFrom('nodes').selectAll().where('public', '=', true);
  if (locationIds && locationIds.length > 0) {
    query = query.where('location_id', 'in', [...new Set(locationIds)]);
  }
  return toApplicationNodes(db, await query.orderBy('id').execute());
}

/**
 * The node's memory and disk columns, its row locked for the rest of the transaction (SQLite runs one write
 * transaction at a time already and has no FOR UPDATE); undefined when there is no such node.
 */
export async function lockNodeRow(tx: Tx, nodeId: number) {
  let query = tx
    .selectFrom('nodes')
    .select(['memory', 'memory_overallocate', 'disk', 'disk_overallocate'])
    .where('id', '=', nodeId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The first node (lowest id) with this name and address. */
export async function findNodeRowNamed(db: Db, name: string, fqdn: string): Promise<NodeRow | undefined> {
  return db
    .selectFrom('nodes')
    .selectAll()
    .where('name', '=', name)
    .where('fqdn', '=', fqdn)
    .orderBy('id')
    .executeTakeFirst();
}

/** The node whose daemon token id this is. */
export async function findNodeRowByTokenId(db: Db, tokenId: string): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('daemon_token_id', '=', tokenId).executeTakeFirst();
}

/** Every node's name and daemon address. */
export async function nodeAddresses(db: Db) {
  return db.selectFrom('nodes').select(['name', 'scheme', 'fqdn', 'daemon_listen']).execute();
}

/** Inserts a node and returns its id. */
export async function insertNode(db: Db, values: Insertable<NodesTable>): Promise<number> {
  return insertReturningId(db, db.insertInto('nodes').values(values));
}

/** Writes these columns of a node; false when there is no such node. */
export async function updateNode(db: Db | Tx, id: number, changes: Updateable<NodesTable>): Promise<boolean> {
  const result = await db.updateTable('nodes').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes the node unless a server is on it, in one statement (a server placed on it at the same moment either
 * makes the delete find it or fails on its foreign key); true when it was deleted.
 */
export async function deleteNodeWithoutServers(tx: Tx, id: number): Promise<boolean> {
  const deleted = await tx
    .deleteFrom('nodes')
    .where('id', '=', id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('servers').select('servers.id').where('servers.node_id', '=', id))),
    )
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/** Whether the node exists. */
export async function nodeExists(db: Db | Tx, id: number): Promise<boolean> {
  return (await db.selectFrom('nodes').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
