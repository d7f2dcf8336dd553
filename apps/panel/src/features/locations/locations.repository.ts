import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { type Location, toLocation } from './location';

/** SQL for the locations table. */

export const locationListSpec = {
  filters: { short: { column: 'locations.short' }, long: { column: 'locations.long' } },
  sorts: { id: 'locations.id' },
} as const;

export async function listLocations(db: Db, list: ListQuery) {
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('locations').selectAll(),
    list,
    'locations.id',
  );
  return { rows: rows.map(toLocation), total };
}

export async function findLocation(db: Db, id: number): Promise<Location | null> {
  const row = await db.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toLocation(row) : null;
}

export async function findLocations(db: Db, ids: number[]): Promise<Location[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('locations').selectAll().where('id', 'in', ids).execute();
  return rows.map(toLocation);
}

/** The location of each node that has one (a server's `location` include goes through its node). */
export async function findLocationsOfNodes(
  db: Db,
  nodeIds: number[],
): Promise<{ nodeId: number; location: Location }[]> {
  if (nodeIds.length === 0) return [];
  const rows = await db
    .selectFrom('nodes')
    .innerJoin('locations', 'locations.id', 'nodes.location_id')
    .selectAll('locations')
    .select('nodes.id as node_id')
    .where('nodes.id', 'in', [...new Set(nodeIds)])
    .execute();
  return rows.map(({ node_id, ...row }) => ({ nodeId: node_id, location: toLocation(row) }));
}
