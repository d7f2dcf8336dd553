import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type InsertQueryBuilder,
  type Kysely,
  MysqlAdapter,
  PostgresAdapter,
  sql,
} from 'kysely';
import type { DbBool, DbDate } from './schema';

/**
 * Everything that differs between SQLite, PostgreSQL and MySQL/MariaDB lives here, so the rest of the panel
 * has one code path: reading counts, booleans and timestamps, spotting unique violations, and the column
 * types migrations need.
 */
export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** A column type as createTable().addColumn() takes it (Kysely does not export the name). */
type DataTypeExpression = Parameters<CreateTableBuilder<string>['addColumn']>[1];

// biome-ignore lint/suspicious/noExplicitAny: works for any schema, including the untyped one migrations get.
export function dialectOf(db: Kysely<any>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  return 'sqlite';
}

/** count() is a string (bigint) on PostgreSQL and a number elsewhere. */
export const readCount = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

/** Booleans are 0/1 on SQLite and MySQL. */
export const readBool = (value: DbBool | string | null | undefined): boolean =>
  value === true || value === 1 || value === '1' || value === 't';

/** Timestamps are Date on PostgreSQL/MySQL and ISO strings on SQLite (bound by sqlite-statements.ts). */
export function readDate(value: DbDate): Date {
  if (value instanceof Date) return value;
  // A bare "YYYY-MM-DD HH:MM:SS" (SQLite's own CURRENT_TIMESTAMP) is UTC.
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

export const readNullableDate = (value: DbDate | null): Date | null =>
  value === null ? null : readDate(value);

/** The wire format of timestamps: ISO 8601 in UTC with an explicit `+00:00` offset, without milliseconds. */
export const toWireDate = (date: Date): string => `${date.toISOString().slice(0, 19)}+00:00`;

/**
 * An insert that skips rows clashing with the unique key `columns` (a repeated or concurrent insert changes
 * nothing): `INSERT IGNORE` on MySQL, `ON CONFLICT (…) DO NOTHING` elsewhere.
 */
export function skippingDuplicates<DB, TB extends keyof DB & string, O>(
  db: Kysely<DB>,
  insert: InsertQueryBuilder<DB, TB, O>,
  columns: readonly string[],
): InsertQueryBuilder<DB, TB, O> {
  return dialectOf(db) === 'mysql'
    ? insert.ignore()
    : insert.onConflict((conflict) => conflict.columns(columns as never).doNothing());
}

/** True when `error` is a unique-constraint violation, whatever the driver. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * True when `error` is a conflict the database resolved by failing this statement or transaction, which can simply
 * be run again: a deadlock or serialization failure (PostgreSQL, MySQL/MariaDB), a lock wait that timed out, or a
 * SQLite database busy with another process's write.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '40P01' ||
    code === '40001' ||
    code === '55P03' ||
    code === 'ER_LOCK_DEADLOCK' ||
    code === 'ER_LOCK_WAIT_TIMEOUT' ||
    code === 'SQLITE_BUSY' ||
    code === 'SQLITE_BUSY_SNAPSHOT' ||
    code === 'SQLITE_LOCKED'
  );
}

/** Column types for migrations, per dialect. */
export function columnTypes(dialect: DialectName) {
  return {
    /** An auto-incrementing integer primary key. */
    id: (dialect === 'postgres' ? 'serial' : 'integer') as DataTypeExpression,
    idColumn: (col: ColumnDefinitionBuilder) =>
      dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
    /** A UTC instant with millisecond precision. */
    timestamp: (dialect === 'postgres'
      ? 'timestamptz(3)'
      : dialect === 'mysql'
        ? sql`datetime(3)`
        : 'text') as DataTypeExpression,
    /** Up to 191 characters so a unique index fits MySQL's key length in utf8mb4. */
    shortText: 'varchar(191)' as DataTypeExpression,
  };
}
