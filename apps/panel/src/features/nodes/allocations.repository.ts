import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import type { AllocationsTable } from '@aerie/panel/db/schema-servers';
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

export async function allocationsOfNodes(db: Db, nodeIds: number[]): Promise<ApplicationAllocation[]> {
  if (nodeIds.length === 0) return [];
  const rows = await db
    .selectFrom('allocations')
    .selectAll()
    .where('node_id', 'in', [...new Set(nodeIds)])
    .orderBy('id')
    .execute();
  return rows.map(toApplicationAllocation);
}
