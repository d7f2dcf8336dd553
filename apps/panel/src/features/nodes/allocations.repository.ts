import type { Db } from '@aerie/panel/db/database';
import { dialectOf, skippingDuplicates } from '@aerie/panel/db/dialect';
import type { AllocationsTable } from '@aerie/panel/db/schema-servers';
import type { Tx } from '@aerie/panel/db/transaction';
import {
  type ListQuery,
  parseListQuery,
  type RawQuery,
  runList,
} from '@aerie/panel/http/application/list-query';
import { type Selectable, sql } from 'kysely';

/** SQL for a node's allocations as the Application API lists them (reference application API §3.4). */

export interface ApplicationAllocation {
  id: number;
  nodeId: number;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
  serverId: number | null;
}

export const toApplicationAllocation = (row: Selectable<AllocationsTable>): ApplicationAllocation => ({
  id: row.id,
  nodeId: row.node_id,
  ip: row.ip,
  alias: row.ip_alias,
  port: Number(row.port),
  notes: row.notes,
  serverId: row.server_id,
});

/**
 * `ip` and `port` exact, `ip_alias` partial, `server_id` custom (see parseAllocationListQuery); no sorts. `port`
 * and `server_id` are compared by this file (digits only), the others by runList.
 */
const allocationListSpec = {
  filters: {
    ip: { column: 'allocations.ip', exact: true },
    port: { column: 'allocations.port', exact: true },
    ip_alias: { column: 'allocations.ip_alias' },
    server_id: { column: 'allocations.server_id', exact: true },
  },
  sorts: {},
} as const;

export interface AllocationListQuery {
  list: ListQuery;
  /** `filter[port]` values that are numbers; an empty list matches nothing. Undefined: no port filter. */
  ports?: number[];
  /** `filter[server_id]`: a server's id, or null for the unassigned allocations. Undefined: no filter. */
  serverId?: number | null;
}

const textOf = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(',') : (value ?? '');

/**
 * The list's query string. `filter[server_id]` is upstream's AllocationServerFilter: a digit string → that
 * server's allocations; empty, `0`, `1,2` or any other text → the unassigned ones.
 * @throws HttpError 400 InvalidFilterQuery / InvalidSortQuery
 */
export function parseAllocationListQuery(query: RawQuery): AllocationListQuery {
  const { 'filter[server_id]': serverFilter, 'filter[port]': portFilter, ...rest } = query;
  const list = parseListQuery(rest, allocationListSpec);
  const parsed: AllocationListQuery = { list };
  if (serverFilter !== undefined) {
    const text = textOf(serverFilter).trim();
    parsed.serverId = /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;
  }
  if (portFilter !== undefined) {
    const parts = textOf(portFilter)
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    // Spatie drops a filter whose value is empty.
    if (parts.length > 0) parsed.ports = parts.filter((part) => /^\d{1,5}$/.test(part)).map(Number);
  }
  return parsed;
}

export async function listAllocations(db: Db, nodeId: number, query: AllocationListQuery) {
  let base = db.selectFrom('allocations').selectAll().where('node_id', '=', nodeId);
  if (query.serverId !== undefined) {
    base =
      query.serverId === null
        ? base.where('server_id', 'is', null)
        : base.where('server_id', '=', query.serverId);
  }
  if (query.ports !== undefined) {
    const ports = query.ports;
    base = ports.length > 0 ? base.where('port', 'in', ports) : base.where(sql<boolean>`1 = 0`);
  }
  const { rows, total } = await runList(dialectOf(db), base, query.list, 'allocations.id');
  return { rows: rows.map(toApplicationAllocation), total };
}

/** The allocations of these servers or nodes, in id order (a server's or node's `allocations` include). */
async function allocationsWhere(db: Db, column: 'server_id' | 'node_id', ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('allocations')
    .selectAll()
    .where(column, 'in', [...new Set(ids)])
    .orderBy('id')
    .execute();
  return rows.map(toApplicationAllocation);
}

export const allocationsOfServers = (db: Db, serverIds: number[]): Promise<ApplicationAllocation[]> =>
  allocationsWhere(db, 'server_id', serverIds);

export const allocationsOfNodes = (db: Db, nodeIds: number[]): Promise<ApplicationAllocation[]> =>
  allocationsWhere(db, 'node_id', nodeIds);

// Allocations as servers take and give them back (creation, build changes, deletion).

/** An allocation no server holds; undefined when it is held or does not exist. */
export async function findFreeAllocation(db: Db, id: number) {
  return db
    .selectFrom('allocations')
    .select(['id', 'node_id'])
    .where('id', '=', id)
    .where('server_id', 'is', null)
    .executeTakeFirst();
}

/** The allocation's holder column; undefined when it does not exist. */
export async function findAllocationHolder(db: Db | Tx, id: number) {
  return db.selectFrom('allocations').select(['id', 'server_id']).where('id', '=', id).executeTakeFirst();
}

/** Gives the server those of `ids` on its node that are free; returns how many it got. */
export async function claimFreeAllocations(
  tx: Tx,
  serverId: number,
  nodeId: number,
  ids: readonly number[],
  now: Date,
  options: { clearNotes?: boolean } = {},
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await tx
    .updateTable('allocations')
    .set({ server_id: serverId, updated_at: now, ...(options.clearNotes ? { notes: null } : {}) })
    .where('id', 'in', [...ids])
    .where('node_id', '=', nodeId)
    .where('server_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Those of `ids` that are free on the node, in id order. */
export async function freeAllocationIdsOnNode(tx: Tx, nodeId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await tx
    .selectFrom('allocations')
    .select('id')
    .where('id', 'in', [...ids])
    .where('node_id', '=', nodeId)
    .where('server_id', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Takes these allocations back from the server (their notes cleared); others' are left alone. */
export async function releaseAllocations(
  tx: Tx,
  serverId: number,
  nodeId: number,
  ids: readonly number[],
  now: Date,
) {
  if (ids.length === 0) return;
  await tx
    .updateTable('allocations')
    .set({ server_id: null, notes: null, updated_at: now })
    .where('id', 'in', [...ids])
    .where('server_id', '=', serverId)
    .where('node_id', '=', nodeId)
    .execute();
}

/** Takes every allocation back from a server being deleted. */
export async function releaseAllAllocations(tx: Tx, serverId: number, now: Date) {
  await tx
    .updateTable('allocations')
    .set({ server_id: null, updated_at: now })
    .where('server_id', '=', serverId)
    .execute();
}

/**
 * Free allocations on `nodeIds` whose port is one of `ports` (single ports or inclusive ranges; none = any), and
 * for a dedicated IP only on addresses no server of that node uses yet; the first `limit` in id order.
 */
export async function freeAllocationCandidates(
  db: Db,
  options: {
    nodeIds: readonly number[];
    ports: { single: number[]; ranges: [number, number][] };
    dedicatedIp: boolean;
    limit: number;
  },
) {
  const { ports } = options;
  if (options.nodeIds.length === 0) return [];
  let query = db
    .selectFrom('allocations')
    .select(['allocations.id', 'allocations.node_id', 'allocations.ip'])
    .where('allocations.node_id', 'in', [...options.nodeIds])
    .where('allocations.server_id', 'is', null);
  if (ports.single.length > 0 || ports.ranges.length > 0) {
    query = query.where((eb) =>
      eb.or([
        ...(ports.single.length > 0 ? [eb('allocations.port', 'in', ports.single)] : []),
        ...ports.ranges.map(([start, end]) =>
          eb.and([eb('allocations.port', '>=', start), eb('allocations.port', '<=', end)]),
        ),
      ]),
    );
  }
  if (options.dedicatedIp) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('allocations as used')
            .select('used.id')
            .whereRef('used.node_id', '=', 'allocations.node_id')
            .whereRef('used.ip', '=', 'allocations.ip')
            .where('used.server_id', 'is not', null),
        ),
      ),
    );
  }
  return query.orderBy('allocations.id').limit(options.limit).execute();
}

// A node's allocations as the node's admin adds and deletes them.

/** An (ip, port) pair to add to a node. */
export interface NewAllocation {
  ip: string;
  port: number;
}

const allocationRows = (nodeId: number, pairs: readonly NewAllocation[], alias: string | null, now: Date) =>
  pairs.map(({ ip, port }) => ({
    node_id: nodeId,
    ip,
    ip_alias: alias,
    port,
    server_id: null,
    notes: null,
    created_at: now,
    updated_at: now,
  }));

/** The ports the node has on `ip`. */
export async function portsOnAddress(db: Db | Tx, nodeId: number, ip: string): Promise<number[]> {
  const rows = await db
    .selectFrom('allocations')
    .select('port')
    .where('node_id', '=', nodeId)
    .where('ip', '=', ip)
    .execute();
  return rows.map((row) => row.port);
}

/** Inserts these pairs as free allocations of the node; a pair it already has fails on the unique index. */
export async function insertAllocations(
  db: Db | Tx,
  nodeId: number,
  pairs: readonly NewAllocation[],
  alias: string | null,
  now: Date,
): Promise<void> {
  if (pairs.length === 0) return;
  await db
    .insertInto('allocations')
    .values(allocationRows(nodeId, pairs, alias, now))
    .execute();
}

/** Inserts these pairs as free allocations of the node, skipping those it already has (their alias kept). */
export async function insertAllocationsSkippingTaken(
  db: Db | Tx,
  nodeId: number,
  pairs: readonly NewAllocation[],
  alias: string | null,
  now: Date,
): Promise<void> {
  if (pairs.length === 0) return;
  const insert = db.insertInto('allocations').values(allocationRows(nodeId, pairs, alias, now));
  await skippingDuplicates(db, insert, ['node_id', 'ip', 'port']).execute();
}

/**
 * Deletes the node's allocation if no server holds it, in one statement (`… where server_id is null`), so a server
 * claiming it at the same moment either gets it or finds it gone; true when it was deleted.
 */
export async function deleteFreeAllocation(tx: Tx, nodeId: number, allocationId: number): Promise<boolean> {
  const deleted = await tx
    .deleteFrom('allocations')
    .where('id', '=', allocationId)
    .where('node_id', '=', nodeId)
    .where('server_id', 'is', null)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/** The node's allocation of that id, or null. */
export async function findAllocationOnNode(
  db: Db | Tx,
  nodeId: number,
  allocationId: number,
): Promise<ApplicationAllocation | null> {
  const row = await db
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', allocationId)
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
  return row ? toApplicationAllocation(row) : null;
}

/** Whether the node has this allocation. */
export async function allocationExistsOnNode(
  db: Db | Tx,
  nodeId: number,
  allocationId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('allocations')
    .select('id')
    .where('id', '=', allocationId)
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The node's free allocation on `ip` with the lowest port. */
export async function lowestFreeAllocation(db: Db, nodeId: number, ip: string) {
  return db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', nodeId)
    .where('ip', '=', ip)
    .where('server_id', 'is', null)
    .orderBy('port')
    .executeTakeFirst();
}
