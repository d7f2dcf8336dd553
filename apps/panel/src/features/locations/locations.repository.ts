import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
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

/** Whether a location has this id. */
export async function locationExists(db: Db, id: number): Promise<boolean> {
  return (
    (await db.selectFrom('locations').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

/** The id of the location with this short code. */
export async function findLocationIdByShort(db: Db, short: string): Promise<number | undefined> {
  return (await db.selectFrom('locations').select('id').where('short', '=', short).executeTakeFirst())?.id;
}

/** Inserts a location and returns its id; a taken short code fails on the unique index. */
export async function insertLocation(
  db: Db,
  input: { short: string; long: string | null },
  now: Date,
): Promise<number> {
  return insertReturningId(
    db,
    db
      .insertInto('locations')
      .values({ short: input.short, long: input.long, created_at: now, updated_at: now }),
  );
}

/** Writes a location's codes; false when there is no such location. */
export async function updateLocation(
  db: Db,
  id: number,
  input: { short: string; long: string | null },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('locations')
    .set({ short: input.short, long: input.long, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether a node is in the location. */
export async function locationHasNodes(db: Db | Tx, id: number): Promise<boolean> {
  return (
    (await db.selectFrom('nodes').select('id').where('location_id', '=', id).executeTakeFirst()) !== undefined
  );
}

export async function deleteLocation(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('locations').where('id', '=', id).execute();
}
