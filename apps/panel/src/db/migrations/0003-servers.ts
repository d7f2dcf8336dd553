import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Nodes and their allocations, nests, eggs and egg variables, servers with their variable values, subusers and
 * transfers (only what is_transferring needs for now).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));

  await db.schema
    .createTable('nodes')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('uuid', 'char(36)', (c) => c.notNull().unique())
    .addColumn('name', t.shortText, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('fqdn', t.shortText, (c) => c.notNull())
    .addColumn('scheme', 'varchar(5)', (c) => c.notNull())
    .addColumn('behind_proxy', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('maintenance_mode', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('memory', 'integer', (c) => c.notNull())
    .addColumn('memory_overallocate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disk', 'integer', (c) => c.notNull())
    .addColumn('disk_overallocate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_size', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('daemon_listen', 'integer', (c) => c.notNull())
    .addColumn('daemon_sftp', 'integer', (c) => c.notNull())
    .addColumn('daemon_base', t.shortText, (c) => c.notNull())
    .addColumn('daemon_token_id', 'char(16)', (c) => c.notNull().unique())
    .addColumn('daemon_token', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('nests')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('uuid', 'char(36)', (c) => c.notNull().unique())
    .addColumn('author', t.shortText, (c) => c.notNull())
    .addColumn('name', t.shortText, (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('eggs')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('uuid', 'char(36)', (c) => c.notNull().unique())
    .addColumn('nest_id', 'integer', (c) => c.notNull().references('nests.id').onDelete('cascade'))
    .addColumn('author', t.shortText, (c) => c.notNull())
    .addColumn('name', t.shortText, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('features', 'text')
    .addColumn('docker_images', 'text', (c) => c.notNull())
    .addColumn('file_denylist', 'text')
    .addColumn('update_url', 'text')
    .addColumn('config_files', 'text')
    .addColumn('config_startup', 'text')
    .addColumn('config_logs', 'text')
    .addColumn('config_stop', t.shortText)
    .addColumn('config_from', 'integer', (c) => c.references('eggs.id').onDelete('set null'))
    .addColumn('startup', 'text')
    .addColumn('script_container', t.shortText, (c) => c.notNull())
    .addColumn('script_entry', t.shortText, (c) => c.notNull())
    .addColumn('script_install', 'text')
    .addColumn('script_is_privileged', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('copy_script_from', 'integer', (c) => c.references('eggs.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('eggs_nest_id_name_index').on('eggs').columns(['nest_id', 'name']).execute();

  await db.schema
    .createTable('egg_variables')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('egg_id', 'integer', (c) => c.notNull().references('eggs.id').onDelete('cascade'))
    .addColumn('name', t.shortText, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('env_variable', t.shortText, (c) => c.notNull())
    .addColumn('default_value', 'text', (c) => c.notNull())
    .addColumn('user_viewable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('user_editable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('egg_variables_egg_id_env_variable_unique', ['egg_id', 'env_variable'])
    .execute();

  // allocations.server_id gets no foreign key: servers and allocations point at each other, and SQLite cannot
  // add a constraint afterwards. Deleting a server frees its allocations in the same transaction instead.
  await db.schema
    .createTable('allocations')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(45)', (c) => c.notNull())
    .addColumn('ip_alias', t.shortText)
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('server_id', 'integer')
    .addColumn('notes', 'varchar(256)')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('allocations_node_id_ip_port_unique', ['node_id', 'ip', 'port'])
    .execute();
  await db.schema.createIndex('allocations_server_id_index').on('allocations').column('server_id').execute();
  // The list's IP search: exact ip, then a port range.
  await db.schema
    .createIndex('allocations_ip_port_index')
    .on('allocations')
    .columns(['ip', 'port'])
    .execute();
  await db.schema.createIndex('allocations_port_index').on('allocations').column('port').execute();

  await db.schema
    .createTable('servers')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('uuid', 'char(36)', (c) => c.notNull().unique())
    .addColumn('uuid_short', 'char(8)', (c) => c.notNull().unique())
    .addColumn('external_id', t.shortText, (c) => c.unique())
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id'))
    .addColumn('name', t.shortText, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(32)')
    .addColumn('skip_scripts', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('memory', 'integer', (c) => c.notNull())
    .addColumn('swap', 'integer', (c) => c.notNull())
    .addColumn('disk', 'integer', (c) => c.notNull())
    .addColumn('io', 'integer', (c) => c.notNull())
    .addColumn('cpu', 'integer', (c) => c.notNull())
    .addColumn('threads', t.shortText)
    .addColumn('oom_disabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('allocation_id', 'integer', (c) => c.notNull().unique().references('allocations.id'))
    .addColumn('nest_id', 'integer', (c) => c.notNull().references('nests.id'))
    .addColumn('egg_id', 'integer', (c) => c.notNull().references('eggs.id'))
    .addColumn('startup', 'text', (c) => c.notNull())
    .addColumn('image', t.shortText, (c) => c.notNull())
    .addColumn('allocation_limit', 'integer')
    .addColumn('database_limit', 'integer')
    .addColumn('backup_limit', 'integer')
    .addColumn('installed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('servers_owner_id_index').on('servers').column('owner_id').execute();
  await db.schema.createIndex('servers_node_id_index').on('servers').column('node_id').execute();
  await db.schema.createIndex('servers_egg_id_index').on('servers').column('egg_id').execute();

  await db.schema
    .createTable('server_variables')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('variable_id', 'integer', (c) =>
      c.notNull().references('egg_variables.id').onDelete('cascade'),
    )
    .addColumn('variable_value', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('server_variables_server_id_variable_id_unique', ['server_id', 'variable_id'])
    .execute();

  await db.schema
    .createTable('subusers')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('subusers_user_id_server_id_unique', ['user_id', 'server_id'])
    .execute();
  await db.schema.createIndex('subusers_server_id_index').on('subusers').column('server_id').execute();

  await db.schema
    .createTable('server_transfers')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('successful', 'boolean')
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('server_transfers_server_id_index')
    .on('server_transfers')
    .column('server_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'server_transfers',
    'subusers',
    'server_variables',
    'servers',
    'allocations',
    'egg_variables',
    'eggs',
    'nests',
    'nodes',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
