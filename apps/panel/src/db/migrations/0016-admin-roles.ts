import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Admin roles: admins below root, each allowed what their role lists (`<area>.<read|write>`, a JSON array). A user
 * has at most one role; deleting a role takes it from its users (set null), which ends their access at once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const t = columnTypes(dialect);
  await db.schema
    .createTable('admin_roles')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  if (dialect === 'sqlite') {
    // SQLite cannot add a foreign key to an existing table but accepts one in the column it adds.
    await db.schema
      .alterTable('users')
      .addColumn('admin_role_id', 'integer', (c) => c.references('admin_roles.id').onDelete('set null'))
      .execute();
  } else {
    await db.schema.alterTable('users').addColumn('admin_role_id', 'integer').execute();
    await db.schema
      .alterTable('users')
      .addForeignKeyConstraint('users_admin_role_id_foreign', ['admin_role_id'], 'admin_roles', ['id'])
      .onDelete('set null')
      .execute();
  }
  await db.schema.createIndex('users_admin_role_id_index').on('users').column('admin_role_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const drop = db.schema.dropIndex('users_admin_role_id_index');
  await (dialect === 'mysql' ? drop.on('users') : drop).execute();
  if (dialect !== 'sqlite') {
    await db.schema.alterTable('users').dropConstraint('users_admin_role_id_foreign').execute();
  }
  await db.schema.alterTable('users').dropColumn('admin_role_id').execute();
  await db.schema.dropTable('admin_roles').execute();
}
