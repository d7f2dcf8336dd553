import { dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * What a server transfer needs beyond is_transferring (Pterodactyl's server_transfers): the nodes it leaves and
 * goes to, the primary and additional allocations on each (JSON arrays of allocation ids), and Aerie's `failure`,
 * the reason an admin is shown. The node columns stay nullable: rows written before this migration have none, and
 * a deleted node leaves its transfers' history behind (set null) rather than blocking the node's deletion.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const mysql = dialectOf(db) === 'mysql';
  for (const column of ['old_node', 'new_node']) {
    // MySQL ignores (and MariaDB names by itself) a REFERENCES in a column: there the key is its own, named, constraint.
    await db.schema
      .alterTable('server_transfers')
      .addColumn(column, 'integer', (c) => (mysql ? c : c.references('nodes.id').onDelete('set null')))
      .execute();
  }
  for (const column of ['old_allocation', 'new_allocation']) {
    await db.schema.alterTable('server_transfers').addColumn(column, 'integer').execute();
  }
  for (const column of ['old_additional_allocations', 'new_additional_allocations', 'failure']) {
    await db.schema.alterTable('server_transfers').addColumn(column, 'text').execute();
  }
  // A node's running transfers are looked up when its daemon boots (`servers/reset`).
  await db.schema
    .createIndex('server_transfers_old_node_index')
    .on('server_transfers')
    .column('old_node')
    .execute();
  await db.schema
    .createIndex('server_transfers_new_node_index')
    .on('server_transfers')
    .column('new_node')
    .execute();
  if (mysql) {
    // After the indexes, which the keys then use.
    for (const column of ['old_node', 'new_node']) {
      await db.schema
        .alterTable('server_transfers')
        .addForeignKeyConstraint(`server_transfers_${column}_foreign`, [column], 'nodes', ['id'])
        .onDelete('set null')
        .execute();
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'mysql') {
    for (const column of ['old_node', 'new_node']) {
      await db.schema
        .alterTable('server_transfers')
        .dropConstraint(`server_transfers_${column}_foreign`)
        .execute();
    }
  }
  for (const index of ['server_transfers_new_node_index', 'server_transfers_old_node_index']) {
    // `DROP INDEX … ON table` is MySQL's form only.
    const drop = db.schema.dropIndex(index);
    await (dialectOf(db) === 'mysql' ? drop.on('server_transfers') : drop).execute();
  }
  for (const column of [
    'failure',
    'new_additional_allocations',
    'old_additional_allocations',
    'new_allocation',
    'old_allocation',
    'new_node',
    'old_node',
  ]) {
    await db.schema.alterTable('server_transfers').dropColumn(column).execute();
  }
}
