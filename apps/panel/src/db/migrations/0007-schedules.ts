import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import { type Kysely, sql } from 'kysely';

/**
 * Schedules and their tasks (Pterodactyl's `schedules` and `tasks`), going with their server. Besides upstream's
 * columns a schedule has the worker's claim: `claimed_by` names the run that holds it and `lease_until` when that
 * claim lapses unless renewed, so a panel that dies mid-run leaves nothing in Processing for long.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const t = columnTypes(dialect);
  await db.schema
    .createTable('schedules')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('name', t.shortText, (c) => c.notNull())
    .addColumn('cron_day_of_week', t.shortText, (c) => c.notNull())
    .addColumn('cron_month', t.shortText, (c) => c.notNull())
    .addColumn('cron_day_of_month', t.shortText, (c) => c.notNull())
    .addColumn('cron_hour', t.shortText, (c) => c.notNull())
    .addColumn('cron_minute', t.shortText, (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull())
    .addColumn('is_processing', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('only_when_online', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_run_at', t.timestamp)
    .addColumn('next_run_at', t.timestamp)
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('lease_until', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_server_id_index').on('schedules').column('server_id').execute();
  // The worker's claim: active, idle, due.
  await db.schema
    .createIndex('schedules_due_index')
    .on('schedules')
    .columns(['is_active', 'is_processing', 'next_run_at'])
    .execute();
  // Expired claims, and the rows of one claim.
  await db.schema
    .createIndex('schedules_lease_index')
    .on('schedules')
    .columns(['is_processing', 'lease_until'])
    .execute();
  await db.schema.createIndex('schedules_claimed_by_index').on('schedules').column('claimed_by').execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('sequence_id', 'integer', (c) => c.notNull())
    .addColumn('action', t.shortText, (c) => c.notNull())
    // A command may be long; MySQL's `text` stops at 64 KiB.
    .addColumn('payload', dialect === 'mysql' ? sql`mediumtext` : 'text', (c) => c.notNull())
    .addColumn('time_offset', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_queued', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('continue_on_failure', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_schedule_id_sequence_id_index')
    .on('tasks')
    .columns(['schedule_id', 'sequence_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tasks').execute();
  await db.schema.dropTable('schedules').execute();
}
