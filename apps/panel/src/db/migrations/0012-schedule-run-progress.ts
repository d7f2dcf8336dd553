import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * How far the run holding a schedule got, kept with its claim so that a panel killed mid-run leaves enough behind
 * for another (or itself, restarted) to finish the run from the next task instead of dropping it, and never to
 * hand a task over twice: `run_task_id` is the task whose hand-over to the daemon began last, `run_task_sent`
 * whether the daemon answered it; `run_manual` a run started by hand; `run_due_at` when a cron run was due (it is
 * tried again while the node does not answer, and dropped, saying so, past a bound).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('schedules').addColumn('run_task_id', 'integer').execute();
  await db.schema
    .alterTable('schedules')
    .addColumn('run_task_sent', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('schedules')
    .addColumn('run_manual', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('schedules').addColumn('run_due_at', t.timestamp).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['run_due_at', 'run_manual', 'run_task_sent', 'run_task_id']) {
    await db.schema.alterTable('schedules').dropColumn(column).execute();
  }
}
