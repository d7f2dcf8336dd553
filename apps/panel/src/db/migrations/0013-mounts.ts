import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Mounts, as Pterodactyl models them: a host folder (`source`) shown to games at `target`, read-only or not, which
 * users may attach themselves when `user_mountable`. Eggs and nodes say where a mount may be used, servers which
 * they use; the pivots go with either side. Application keys get a `r_mounts` column like every other resource.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));
  await db.schema
    .createTable('mounts')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('source', t.shortText, (c) => c.notNull())
    .addColumn('target', t.shortText, (c) => c.notNull())
    .addColumn('read_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('user_mountable', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  for (const [table, column, parent] of [
    ['egg_mount', 'egg_id', 'eggs'],
    ['mount_node', 'node_id', 'nodes'],
    ['mount_server', 'server_id', 'servers'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(column, 'integer', (c) => c.notNull().references(`${parent}.id`).onDelete('cascade'))
      .addColumn('mount_id', 'integer', (c) => c.notNull().references('mounts.id').onDelete('cascade'))
      .addPrimaryKeyConstraint(`${table}_primary`, [column, 'mount_id'])
      .execute();
    await db.schema.createIndex(`${table}_mount_id_index`).on(table).column('mount_id').execute();
  }
  await db.schema
    .alterTable('api_keys')
    .addColumn('r_mounts', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('r_mounts').execute();
  for (const table of ['mount_server', 'mount_node', 'egg_mount']) await db.schema.dropTable(table).execute();
  await db.schema.dropTable('mounts').execute();
}
