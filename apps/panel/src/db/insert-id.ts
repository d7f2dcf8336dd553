import type { InsertQueryBuilder, InsertResult, Kysely } from 'kysely';
import { dialectOf } from './dialect';

/**
 * Runs an insert of one row made on `db` and returns its new id: PostgreSQL through `RETURNING id`, SQLite and
 * MySQL through the driver's insert id (MySQL has no RETURNING).
 */
export async function insertReturningId<DB>(
  db: Kysely<DB>,
  // biome-ignore lint/suspicious/noExplicitAny: any table with an integer `id`.
  query: InsertQueryBuilder<DB, any, InsertResult>,
): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const row = (await query.returning('id' as never).executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }
  return Number((await query.executeTakeFirstOrThrow()).insertId);
}
