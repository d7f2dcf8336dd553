import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import type { Database } from './schema';
import { QueuedSqliteDialect } from './sqlite-queue';
import { sqliteForKysely } from './sqlite-statements';

export type Db = Kysely<Database>;

export const sqliteFile = (dataDir: string) => join(dataDir, 'aerie.sqlite');

/**
 * Opens the panel database: SQLite in DATA_DIR by default, PostgreSQL or MySQL/MariaDB when DATABASE_URL says so.
 * The same migrations and queries run on all three (see dialect.ts for the few differences).
 */
export function createDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): Db {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:/.test(url)) {
    // A database that does not answer fails a request in seconds (503) rather than holding it for good.
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
    // An idle connection the server ends (a restart, a failover, an admin's kill) is reported here; without a
    // listener Node throws it and the panel dies. The pool drops that client and opens another when needed.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    // A connection cut while checked out (between two queries of a request or a transaction) reports on the client
    // itself, where the pool listens only while it is idle: every client keeps a listener of its own, so the cut
    // fails that request (503) and never the process.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (url && /^(mysql|mariadb):/.test(url)) {
    const pool = createPool({
      uri: url.replace(/^mariadb:/, 'mysql:'),
      connectionLimit: 10,
      // Dates are written and read as UTC, whatever the server's or this machine's time zone is.
      timezone: 'Z',
      charset: 'utf8mb4',
    });
    return new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  }
  const sqlite = new SQLite(sqliteFile(options.dataDir));
  sqlite.pragma('journal_mode = WAL');
  // With WAL, NORMAL syncs at checkpoints rather than on every commit: a killed process loses nothing and the file
  // stays consistent; only a power cut can lose the last commits. FULL's fsync per write (an activity row per file
  // write) blocked the event loop for longer than the request's own work.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Wait for another process's write (aerie user:create while the panel runs) instead of failing at once.
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new QueuedSqliteDialect({ database: sqliteForKysely(sqlite) }),
  });
}
