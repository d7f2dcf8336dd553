import { columnTypes, dialectOf } from '@aerie/panel/db/dialect';
import type { Kysely } from 'kysely';

/**
 * Addresses each user has signed in from (issue 20): the per-account sign-in slow-down never applies from one of
 * them, so no stranger can keep an owner out of their account from a place that worked before. Only a keyed hash
 * of the address (an IPv6 address by its /64) is kept; rows go with their user.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db));
  await db.schema
    .createTable('sign_in_addresses')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // HMAC-SHA-256 hex under the app key: 64 characters.
    .addColumn('address_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_addresses_primary', ['user_id', 'address_hash'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_addresses').execute();
}
