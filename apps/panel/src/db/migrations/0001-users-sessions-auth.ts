import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/** Users, browser sessions, 2FA recovery tokens and password reset tokens. */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));

  await db.schema
    .createTable('users')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('uuid', 'char(36)', (c) => c.notNull().unique())
    .addColumn('external_id', t.shortText, (c) => c.unique())
    .addColumn('username', t.shortText, (c) => c.notNull().unique())
    .addColumn('email', t.shortText, (c) => c.notNull().unique())
    .addColumn('name_first', t.shortText)
    .addColumn('name_last', t.shortText)
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('language', 'varchar(5)', (c) => c.notNull().defaultTo('en'))
    .addColumn('root_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('use_totp', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_authenticated_at', t.timestamp)
    .addColumn('gravatar', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'char(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(45)')
    .addColumn('user_agent', 'text')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_index').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('recovery_tokens')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token', 'char(64)', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recovery_tokens_user_id_index')
    .on('recovery_tokens')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('email', t.shortText, (c) => c.notNull())
    .addColumn('token', 'char(64)', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_resets_email_index').on('password_resets').column('email').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['password_resets', 'recovery_tokens', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
