import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Single sign-on: identity providers (client secrets sealed), the links between accounts and a provider's
 * subjects (one per provider and account, one account per subject; they go with either side), and whether an
 * account has a password of its own (`has_password`: false for one a provider created, until a reset sets one).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));
  await db.schema
    .createTable('oauth_providers')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('slug', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('issuer', 'text')
    .addColumn('client_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('create_accounts', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('email_domains', 'text', (c) => c.notNull())
    .addColumn('allow_two_factor_accounts', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Table-level keys: MySQL ignores a REFERENCES written in a column.
  await db.schema
    .createTable('user_oauth_links')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('subject', t.shortText, (c) => c.notNull())
    .addColumn('email', t.shortText)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addForeignKeyConstraint('user_oauth_links_user_id_foreign', ['user_id'], 'users', ['id'], (k) =>
      k.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'user_oauth_links_provider_id_foreign',
      ['provider_id'],
      'oauth_providers',
      ['id'],
      (k) => k.onDelete('cascade'),
    )
    .addUniqueConstraint('user_oauth_links_provider_subject_unique', ['provider_id', 'subject'])
    .addUniqueConstraint('user_oauth_links_user_provider_unique', ['user_id', 'provider_id'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('has_password', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('has_password').execute();
  await db.schema.dropTable('user_oauth_links').execute();
  await db.schema.dropTable('oauth_providers').execute();
}
