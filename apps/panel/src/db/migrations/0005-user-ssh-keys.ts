import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Users' SSH public keys, for SFTP logins (Pterodactyl's `user_ssh_keys`): removed keys are kept with `deleted_at`
 * (soft delete, as upstream), and go with their user.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));
  await db.schema
    .createTable('user_ssh_keys')
    .addColumn('id', t.id, t.idColumn)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Unpadded base64 of a SHA-256: 43 characters.
    .addColumn('fingerprint', t.shortText, (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('deleted_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('user_ssh_keys_user_id_fingerprint_index')
    .on('user_ssh_keys')
    .columns(['user_id', 'fingerprint'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_ssh_keys').execute();
}
