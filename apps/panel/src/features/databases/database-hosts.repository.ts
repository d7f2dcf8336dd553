import type { Db } from '@aerie/panel/db/database';
import { dialectOf } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { type DatabaseHost, toDatabaseHost } from './database-host';

/** SQL of database hosts (the lists a server's databases read are in server-databases.repository.ts). */

export async function findHost(db: Db | Tx, id: number): Promise<DatabaseHost | null> {
  const row = await db.selectFrom('database_hosts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toDatabaseHost(row) : null;
}

/** A host's columns as written, its password already sealed. */
export interface HostValues {
  name: string;
  driver: 'mysql' | 'postgres';
  host: string;
  port: number;
  username: string;
  sealedPassword: string;
  nodeId: number | null;
}

/** The columns a host's form writes. */
const hostColumns = (host: HostValues) => ({
  name: host.name,
  driver: host.driver,
  host: host.host,
  port: host.port,
  username: host.username,
  password: host.sealedPassword,
  node_id: host.nodeId,
});

/** @returns the new host's id */
export function insertHost(db: Db | Tx, host: HostValues, now: Date): Promise<number> {
  return insertReturningId(
    db,
    db
      .insertInto('database_hosts')
      .values({ ...hostColumns(host), max_databases: null, created_at: now, updated_at: now }),
  );
}

export async function updateHost(db: Db | Tx, id: number, host: HostValues, now: Date): Promise<void> {
  await db
    .updateTable('database_hosts')
    .set({ ...hostColumns(host), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Whether a server's database is on the host. */
export async function hostHasDatabases(db: Db | Tx, hostId: number): Promise<boolean> {
  const used = await db
    .selectFrom('databases')
    .select('id')
    .where('database_host_id', '=', hostId)
    .executeTakeFirst();
  return used !== undefined;
}

/** @returns whether there was such a host */
export async function deleteHost(db: Db | Tx, id: number): Promise<boolean> {
  const result = await db.deleteFrom('database_hosts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A page of hosts for the Application API's list (its filters and sort), and how many match. */
export async function listHosts(db: Db, list: ListQuery) {
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('database_hosts').selectAll(),
    list,
    'database_hosts.id',
  );
  return { rows: rows.map(toDatabaseHost), total };
}
