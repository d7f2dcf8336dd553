import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import { type DatabaseHost, toDatabaseHost } from './database-host';
import { type ServerDatabase, type ServerDatabaseWithHost, toServerDatabase } from './server-database';

/** SQL of per-server databases. */

async function withHosts(db: Db | Tx, databases: ServerDatabase[]): Promise<ServerDatabaseWithHost[]> {
  if (databases.length === 0) return [];
  const hosts = await findHosts(db, [...new Set(databases.map((database) => database.hostId))]);
  const byId = new Map(hosts.map((host) => [host.id, host]));
  return databases.map((database) => ({ ...database, host: byId.get(database.hostId) as DatabaseHost }));
}

export async function findHosts(db: Db | Tx, ids: number[]): Promise<DatabaseHost[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('database_hosts').selectAll().where('id', 'in', ids).execute();
  return rows.map(toDatabaseHost);
}

/** Every host, oldest first: what a server's new database may be put on. */
export async function listHosts(db: Db): Promise<DatabaseHost[]> {
  const rows = await db.selectFrom('database_hosts').selectAll().orderBy('id').execute();
  return rows.map(toDatabaseHost);
}

/** The servers' databases with their hosts, oldest first. */
export async function listServerDatabases(
  db: Db | Tx,
  serverIds: number[],
): Promise<ServerDatabaseWithHost[]> {
  if (serverIds.length === 0) return [];
  const rows = await db
    .selectFrom('databases')
    .selectAll()
    .where('server_id', 'in', serverIds)
    .orderBy('id')
    .execute();
  return withHosts(db, rows.map(toServerDatabase));
}

/** One database of the server; another server's (or none) is undefined. */
export async function findServerDatabase(
  db: Db | Tx,
  serverId: number,
  id: number | undefined,
): Promise<ServerDatabaseWithHost | undefined> {
  if (id === undefined) return undefined;
  const row = await db
    .selectFrom('databases')
    .selectAll()
    .where('id', '=', id)
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  return row ? (await withHosts(db, [toServerDatabase(row)]))[0] : undefined;
}

/**
 * Locks the server's row until the transaction ends, so two creates counting its databases run one after the
 * other (SQLite runs one write transaction at a time already and has no FOR UPDATE).
 * @returns the server's database limit as it is now (null: no limit)
 */
export async function lockServerForDatabases(tx: Tx, serverId: number): Promise<{ limit: number | null }> {
  let query = tx.selectFrom('servers').select('database_limit').where('id', '=', serverId);
  if (dialectOf(tx) !== 'sqlite') query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  return { limit: row.database_limit === null ? null : Number(row.database_limit) };
}

export async function countServerDatabases(db: Db | Tx, serverId: number): Promise<number> {
  const row = await db
    .selectFrom('databases')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('server_id', '=', serverId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function databaseNameTaken(db: Db | Tx, serverId: number, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('databases')
    .select('id')
    .where('server_id', '=', serverId)
    .where('database', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/** @returns false when the row was gone already */
export async function deleteDatabaseRow(db: Db | Tx, id: number): Promise<boolean> {
  const result = await db.deleteFrom('databases').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Stores a new sealed password only if the stored one is still `expected`: false when another rotation (or a
 * delete) got there first.
 */
export async function replacePassword(
  tx: Tx,
  id: number,
  expected: string,
  sealed: string,
  now: Date,
): Promise<boolean> {
  const result = await tx
    .updateTable('databases')
    .set({ password: sealed, updated_at: now })
    .where('id', '=', id)
    .where('password', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A server's new database row (its password sealed). @returns its id
 * @throws the driver's unique-violation error when the name or the username is taken
 */
export function insertDatabaseRow(
  tx: Db | Tx,
  row: {
    serverId: number;
    hostId: number;
    database: string;
    username: string;
    remote: string;
    sealedPassword: string;
  },
  now: Date,
): Promise<number> {
  return insertReturningId(
    tx,
    tx.insertInto('databases').values({
      server_id: row.serverId,
      database_host_id: row.hostId,
      database: row.database,
      username: row.username,
      remote: row.remote,
      password: row.sealedPassword,
      max_connections: 0,
      created_at: now,
      updated_at: now,
    }),
  );
}
