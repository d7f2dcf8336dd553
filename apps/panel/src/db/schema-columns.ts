/**
 * Raw column values as the three drivers return them: booleans are 0/1 on SQLite and MySQL, timestamps are
 * Date on PostgreSQL/MySQL and ISO strings on SQLite. Read them through db/dialect.ts, never directly. Their own
 * module, so the per-area schema files read them without importing the schema that gathers them.
 */
export type DbBool = boolean | number;
export type DbDate = Date | string;
