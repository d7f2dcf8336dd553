import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import { type Kysely, sql } from 'kysely';

/**
 * Backups (Pterodactyl's `backups`), going with their server. `disk` is where the archive lives (`wings`: the node's
 * backup directory, `s3`: the bucket); `upload_id` the S3 multipart upload while the node uploads it; `deleted_at`
 * a soft delete (a deleted backup still counts towards the creation throttle, as upstream counts it).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const t = columnTypes(dialect);
  await db.schema
    .createTable('backups')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('uuid', 'char(36)', (c) => c.notNull().unique())
    .addColumn('upload_id', 'text')
    .addColumn('is_successful', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('name', t.shortText, (c) => c.notNull())
    // The ignore rules, a JSON array of strings; MySQL's `text` stops at 64 KiB.
    .addColumn('ignored_files', dialect === 'mysql' ? sql`mediumtext` : 'text', (c) => c.notNull())
    .addColumn('disk', t.shortText, (c) => c.notNull())
    .addColumn('checksum', t.shortText)
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('deleted_at', t.timestamp)
    .execute();
  // A server's backups (list, limit, throttle).
  await db.schema
    .createIndex('backups_server_id_created_at_index')
    .on('backups')
    .columns(['server_id', 'created_at'])
    .execute();
  // The pruner: backups still running, oldest first.
  await db.schema
    .createIndex('backups_completed_at_created_at_index')
    .on('backups')
    .columns(['completed_at', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('backups').execute();
}
