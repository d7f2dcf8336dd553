import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Per-server databases (Pterodactyl's `databases`): a database and its user on a database host, going with their
 * server. `database` is the name on the host (`s{server}_{name}`), `password` is sealed with the app key, `remote`
 * where the user may connect from. A host with databases cannot be deleted.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));
  await db.schema
    .createTable('databases')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('database_host_id', 'integer', (c) =>
      c.notNull().references('database_hosts.id').onDelete('restrict'),
    )
    .addColumn('database', 'varchar(48)', (c) => c.notNull())
    .addColumn('username', 'varchar(32)', (c) => c.notNull())
    .addColumn('remote', t.shortText, (c) => c.notNull().defaultTo('%'))
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('max_connections', 'integer', (c) => c.defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // One name per server (the unique rule and parallel creates), and per host (where the database lives).
  await db.schema
    .createIndex('databases_server_id_database_unique')
    .on('databases')
    .columns(['server_id', 'database'])
    .unique()
    .execute();
  await db.schema
    .createIndex('databases_database_host_id_database_unique')
    .on('databases')
    .columns(['database_host_id', 'database'])
    .unique()
    .execute();
  await db.schema
    .createIndex('databases_database_host_id_username_unique')
    .on('databases')
    .columns(['database_host_id', 'username'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('databases').execute();
}
