import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** better-sqlite3 binds only numbers, strings, bigints, buffers and null: Dates go in as ISO strings, booleans 0/1. */
const toSqlite = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
};

const needsConversion = (value: unknown) => value instanceof Date || typeof value === 'boolean';

/**
 * Converts the values as they are bound, so the panel passes Date and boolean values to SQLite exactly as it does to
 * PostgreSQL and MySQL. Done here rather than in a Kysely plugin: a plugin's transform copies every query's whole
 * tree, which cost more than running a point query (bench/README.md, bench).
 */
const bindable = (parameters: readonly unknown[]) =>
  parameters.some(needsConversion) ? parameters.map(toSqlite) : parameters;

const kyselyStatement = (statement: SQLite.Statement): SqliteStatement => ({
  reader: statement.reader,
  all: (parameters) => statement.all(bindable(parameters)),
  run: (parameters) => statement.run(bindable(parameters)),
  iterate: (parameters) => statement.iterate(bindable(parameters)),
});

/**
 * What Kysely's `rollback` runs when SQLite has already rolled the transaction back itself, as it may after
 * SQLITE_FULL or an I/O error: a real ROLLBACK would fail with "cannot rollback - no transaction is active" and
 * that error would replace the one that explains the failure (a full disk).
 */
const ALREADY_ROLLED_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/**
 * The database as Kysely's SqliteDialect sees it. Kysely prepares every query anew; on the hot paths (the session
 * look-up on each request) preparing costs more than running. Statements are reused by SQL text, except one still
 * being iterated (`busy`).
 */
export function sqliteForKysely(sqlite: SQLite.Database, max = 256): SqliteDatabase {
  const cache = new Map<string, { statement: SQLite.Statement; wrapped: SqliteStatement }>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      if (sql === 'rollback' && !sqlite.inTransaction) return ALREADY_ROLLED_BACK;
      const cached = cache.get(sql);
      if (cached && !cached.statement.busy) return cached.wrapped;
      const statement = sqlite.prepare(sql);
      const wrapped = kyselyStatement(statement);
      if (!cached) {
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, { statement, wrapped });
      }
      return wrapped;
    },
  };
}
