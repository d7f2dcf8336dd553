import type { Db } from '@aerie/panel/db/database';
import { dialectOf, skippingDuplicates } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { type Mount, toMount } from './mount';

/** SQL for mounts and the three pivots that say where a mount may be used (eggs, nodes) and who uses it (servers). */

export const mountListSpec = {
  filters: { uuid: { column: 'mounts.uuid' }, name: { column: 'mounts.name' } },
  sorts: { id: 'mounts.id', uuid: 'mounts.uuid' },
} as const;

/** A mount's pivots: the table, its other column, and the table that column points at. */
export const mountPivots = {
  eggs: { table: 'egg_mount', column: 'egg_id', parent: 'eggs' },
  nodes: { table: 'mount_node', column: 'node_id', parent: 'nodes' },
  servers: { table: 'mount_server', column: 'server_id', parent: 'servers' },
} as const;
export type MountRelation = keyof typeof mountPivots;

export interface MountFields {
  name: string;
  description: string | null;
  source: string;
  target: string;
  readOnly: boolean;
  userMountable: boolean;
}

export async function listMounts(db: Db, list: ListQuery) {
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('mounts').selectAll(),
    list,
    'mounts.id',
  );
  return { rows: rows.map(toMount), total };
}

export async function findMount(db: Db | Tx, id: number): Promise<Mount | null> {
  const row = await db.selectFrom('mounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMount(row) : null;
}

/** Inserts a mount and returns its id; a taken name fails on the unique index. */
export async function insertMount(db: Db, uuid: string, fields: MountFields): Promise<number> {
  return insertReturningId(db, db.insertInto('mounts').values({ uuid, ...toColumns(fields) }));
}

/** Writes a mount's fields; false when there is no such mount. A taken name fails on the unique index. */
export async function updateMount(db: Db, id: number, fields: MountFields): Promise<boolean> {
  const result = await db
    .updateTable('mounts')
    .set(toColumns(fields))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const toColumns = (fields: MountFields) => ({
  name: fields.name,
  description: fields.description,
  source: fields.source,
  target: fields.target,
  read_only: fields.readOnly,
  user_mountable: fields.userMountable,
});

export async function mountHasServers(tx: Tx, id: number): Promise<boolean> {
  const row = await tx
    .selectFrom('mount_server')
    .select('server_id')
    .where('mount_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes a mount; its egg and node pivots go with it (cascade). */
export async function deleteMount(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('mounts').where('id', '=', id).execute();
}

/** Which of `ids` exist in the relation's parent table. */
export async function existingIds(
  db: Db | Tx,
  relation: MountRelation,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom(mountPivots[relation].parent)
    .select('id')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Adds pivot rows, skipping those that exist (a repeated or concurrent attach changes nothing). */
export async function attachToMount(
  db: Db | Tx,
  relation: MountRelation,
  mountId: number,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const { table, column } = mountPivots[relation];
  const rows = [...new Set(ids)].map((id) => ({ [column]: id, mount_id: mountId }));
  // biome-ignore lint/suspicious/noExplicitAny: the table and its column are picked together from mountPivots.
  const insert = db.insertInto(table as any).values(rows as any);
  await skippingDuplicates(db, insert, [column, 'mount_id']).execute();
}

/** Removes one pivot row; false when there was none. */
export async function detachFromMount(
  db: Db | Tx,
  relation: MountRelation,
  mountId: number,
  id: number,
): Promise<boolean> {
  const { table, column } = mountPivots[relation];
  const result = await db
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    .deleteFrom(table as any)
    .where('mount_id', '=', mountId)
    .where(column, '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The pivot rows of these mounts: which egg, node or server each is attached to. */
export async function pivotsOfMounts(
  db: Db,
  relation: MountRelation,
  mountIds: readonly number[],
): Promise<{ mountId: number; id: number }[]> {
  if (mountIds.length === 0) return [];
  const { table, column } = mountPivots[relation];
  const rows = await db
    // biome-ignore lint/suspicious/noExplicitAny: the table and its column are picked together from mountPivots.
    .selectFrom(table as any)
    .select(['mount_id', column])
    .where('mount_id', 'in', [...new Set(mountIds)])
    .orderBy(column)
    .execute();
  return rows.map((row: Record<string, unknown>) => ({
    mountId: Number(row.mount_id),
    id: Number(row[column]),
  }));
}

/** The mounts a server may use: attached to both its egg and its node. */
export async function mountsAllowedForServer(
  db: Db | Tx,
  server: { eggId: number; nodeId: number },
): Promise<Mount[]> {
  const query = db
    .selectFrom('mounts')
    .innerJoin('egg_mount', 'egg_mount.mount_id', 'mounts.id')
    .innerJoin('mount_node', 'mount_node.mount_id', 'mounts.id')
    .selectAll('mounts')
    .where('egg_mount.egg_id', '=', server.eggId)
    .where('mount_node.node_id', '=', server.nodeId);
  return (await query.orderBy('mounts.id').execute()).map(toMount);
}

/** The ids of the mounts a server uses (attached, whether or not still on its egg and node). */
export async function mountIdsOfServer(db: Db | Tx, serverId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('mount_server')
    .select('mount_id')
    .where('server_id', '=', serverId)
    .execute();
  return new Set(rows.map((row) => row.mount_id));
}

/** The egg and node of each of these servers. */
export async function placementsOfServers(db: Db | Tx, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('servers')
    .select(['id', 'egg_id', 'node_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return rows.map((row) => ({ id: row.id, eggId: row.egg_id, nodeId: row.node_id }));
}

/**
 * What the daemon binds for each of these servers on this node: the mounts each uses that are still attached to its
 * egg and to the node (a mount taken off either stops being used at the next start). One query for all servers.
 */
export async function daemonMountsOfServers(db: Db, nodeId: number, serverIds: readonly number[]) {
  if (serverIds.length === 0) return [];
  return db
    .selectFrom('mount_server')
    .innerJoin('servers', 'servers.id', 'mount_server.server_id')
    .innerJoin('mounts', 'mounts.id', 'mount_server.mount_id')
    .innerJoin('egg_mount', (join) =>
      join.onRef('egg_mount.mount_id', '=', 'mounts.id').onRef('egg_mount.egg_id', '=', 'servers.egg_id'),
    )
    .innerJoin('mount_node', (join) =>
      join.onRef('mount_node.mount_id', '=', 'mounts.id').on('mount_node.node_id', '=', nodeId),
    )
    .select(['mount_server.server_id', 'mounts.source', 'mounts.target', 'mounts.read_only'])
    .where('mount_server.server_id', 'in', [...new Set(serverIds)])
    .orderBy('mounts.id')
    .execute();
}

/** A node's `allowed_mounts`: the sources of the mounts attached to it. */
export async function mountSourcesOfNode(db: Db, nodeId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('mounts')
    .innerJoin('mount_node', 'mount_node.mount_id', 'mounts.id')
    .select('mounts.source')
    .where('mount_node.node_id', '=', nodeId)
    .orderBy('mounts.id')
    .execute();
  return [...new Set(rows.map((row) => row.source))];
}
