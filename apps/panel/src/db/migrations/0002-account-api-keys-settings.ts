import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/** Account API keys, panel settings, and the last accepted TOTP time step per user (replay protection). */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));

  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_type', 'smallint', (c) => c.notNull())
    .addColumn('identifier', 'char(16)', (c) => c.notNull().unique())
    .addColumn('token', 'char(64)', (c) => c.notNull())
    .addColumn('allowed_ips', 'text', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_user_id_index').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', t.shortText, (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('settings').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
}
