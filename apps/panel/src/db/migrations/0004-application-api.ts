import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * What the Application API manages beyond the servers tables: locations (every node is in one), node
 * visibility for automatic deployment, the per-resource permissions of application keys (`r_*`: bit 1 read,
 * bit 2 write) and database hosts. Nodes that exist already are put in a location named `local`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));

  await db.schema
    .createTable('locations')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('short', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('long', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('nodes')
    .addColumn('location_id', 'integer', (c) => c.references('locations.id'))
    .execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema.createIndex('nodes_location_id_index').on('nodes').column('location_id').execute();

  const nodes = await db.selectFrom('nodes').select('id').execute();
  if (nodes.length > 0) {
    const now = new Date();
    await db
      .insertInto('locations')
      .values({ short: 'local', long: 'This machine', created_at: now, updated_at: now })
      .execute();
    const location = await db
      .selectFrom('locations')
      .select('id')
      .where('short', '=', 'local')
      .executeTakeFirstOrThrow();
    await db.updateTable('nodes').set({ location_id: location.id }).execute();
  }

  for (const column of APPLICATION_KEY_COLUMNS) {
    await db.schema
      .alterTable('api_keys')
      .addColumn(column, 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  await db.schema
    .createTable('database_hosts')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('name', t.shortText, (c) => c.notNull())
    // 'mysql' (MySQL/MariaDB) or 'postgres'.
    .addColumn('driver', 'varchar(16)', (c) => c.notNull().defaultTo('mysql'))
    .addColumn('host', t.shortText, (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', t.shortText, (c) => c.notNull())
    // Sealed with the app key.
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('max_databases', 'integer')
    .addColumn('node_id', 'integer', (c) => c.references('nodes.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}

const APPLICATION_KEY_COLUMNS = [
  'r_servers',
  'r_nodes',
  'r_allocations',
  'r_users',
  'r_locations',
  'r_nests',
  'r_eggs',
  'r_database_hosts',
  'r_server_databases',
] as const;

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('database_hosts').execute();
  for (const column of APPLICATION_KEY_COLUMNS) {
    await db.schema.alterTable('api_keys').dropColumn(column).execute();
  }
  await db.schema.dropIndex('nodes_location_id_index').execute();
  await db.schema.alterTable('nodes').dropColumn('public').execute();
  await db.schema.alterTable('nodes').dropColumn('location_id').execute();
  await db.schema.dropTable('locations').execute();
}
