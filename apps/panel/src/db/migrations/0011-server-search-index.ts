import type { Kysely } from 'kysely';

/**
 * The server list's search (issue 19): `filter[*]` compares name (a substring, no B-tree can seek it), external_id,
 * uuid_short and uuid. Counting its matches read every row of the wide servers table; with these four columns in
 * one index the count scans only the index (SQLite: "SCAN servers USING COVERING INDEX"), about 3.5x less work
 * on 100,000 servers. The page itself walks servers by id and stops at the 50th match.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow the current schema type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('servers_search_index')
    .on('servers')
    .columns(['name', 'external_id', 'uuid_short', 'uuid'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('servers_search_index').on('servers').execute();
}
