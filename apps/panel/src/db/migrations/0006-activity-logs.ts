import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import { type Kysely, sql } from 'kysely';

/**
 * The activity log (Pterodactyl's `activity_logs`). Upstream attaches subjects through a morph table; the lists
 * only ever ask "entries about this server" and "entries about this account", so those two subjects are columns
 * here and recording an entry is one insert. An entry goes with its server or its account; a deleted actor leaves
 * the entry without one.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const t = columnTypes(dialect);
  await db.schema
    .createTable('activity_logs')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('batch', 'varchar(36)')
    .addColumn('event', t.shortText, (c) => c.notNull())
    // The longest IPv6 text with a zone is 45 characters.
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('is_api', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('cascade'))
    .addColumn('subject_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // A delete of many files lists them all: more than MySQL's 64 KiB `text` can take.
    .addColumn('properties', dialect === 'mysql' ? sql`mediumtext` : 'text', (c) => c.notNull())
    .addColumn('timestamp', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_logs_server_id_timestamp_index')
    .on('activity_logs')
    .columns(['server_id', 'timestamp'])
    .execute();
  await db.schema
    .createIndex('activity_logs_subject_user_id_timestamp_index')
    .on('activity_logs')
    .columns(['subject_user_id', 'timestamp'])
    .execute();
  await db.schema
    .createIndex('activity_logs_actor_id_index')
    .on('activity_logs')
    .column('actor_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('activity_logs').execute();
}
