import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import { type Kysely, sql } from 'kysely';

/**
 * The admin audit log: one row per change made through the admin area or the Application API, written in the
 * change's own transaction. Kept apart from `activity_logs` (what users did to their servers and accounts), as
 * Calagopus does, so neither list hides the other. The actor's name is copied in: the entry must still say who
 * once that user is deleted (set null). Application keys get `r_audit_log` like every other resource.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const t = columnTypes(dialect);
  // A whole egg or a server's environment before and after: more than MySQL's 64 KiB `text` can take.
  const json = dialect === 'mysql' ? sql`mediumtext` : 'text';
  await db.schema
    .createTable('admin_audit_log')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', t.shortText, (c) => c.notNull())
    .addColumn('api_key', 'varchar(32)')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(64)')
    .addColumn('before', json)
    .addColumn('after', json)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    // A table constraint, not a column REFERENCES, which MySQL would ignore.
    .addForeignKeyConstraint('admin_audit_log_actor_id_foreign', ['actor_id'], 'users', ['id'], (c) =>
      c.onDelete('set null'),
    )
    .execute();
  for (const columns of [['actor_id'], ['action'], ['subject_type', 'subject_id']]) {
    await db.schema
      .createIndex(`admin_audit_log_${columns.join('_')}_index`)
      .on('admin_audit_log')
      .columns(columns)
      .execute();
  }
  await db.schema
    .alterTable('api_keys')
    .addColumn('r_audit_log', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('r_audit_log').execute();
  await db.schema.dropTable('admin_audit_log').execute();
}
